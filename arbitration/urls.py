"""Arbitration pages."""

app_name = "arbitration"

urlpatterns: list = []
