"""URL patterns of the rounds area (merged into the tournaments namespace)."""

urlpatterns: list = []
