"""API URL patterns of the rounds area."""

urlpatterns: list = []
