"""URL patterns of the results area (merged into the tournaments namespace)."""

urlpatterns: list = []
