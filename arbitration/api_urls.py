"""Arbitration API."""

urlpatterns: list = []
