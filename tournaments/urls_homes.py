"""URL patterns of every role's home (merged into the tournaments namespace)."""

from django.urls import path

from .views import homes

EVENT = "t/<slug:slug>/"

urlpatterns: list = [
    path(EVENT + "chief/", homes.ChiefDeskView.as_view(), name="chief-desk"),
    path(EVENT + "chief/counts/", homes.ChiefDeskCountsView.as_view(), name="chief-desk-counts"),
    path(EVENT + "my/tables/", homes.RefereeHomeView.as_view(), name="my-tables"),
    path(EVENT + "my/match/", homes.CaptainHomeView.as_view(), name="my-match"),
]
