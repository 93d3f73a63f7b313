"""API URL patterns of the public area."""

urlpatterns: list = []
