"""API URL patterns of the results area."""

urlpatterns: list = []
