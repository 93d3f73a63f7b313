"""URL patterns of the public area (merged into the tournaments namespace)."""

urlpatterns: list = []
