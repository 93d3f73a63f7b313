"""URL patterns of check-in, leaves, attendance and the operations board (merged into the tournaments namespace)."""

from django.urls import path

from .views import board, checkin

MANAGE = "t/<slug:slug>/manage/"

urlpatterns: list = [
    path(MANAGE + "checkin/", checkin.CheckInView.as_view(), name="checkin"),
    path(
        MANAGE + "checkin/team/<int:pk>/", checkin.BadgeCheckInView.as_view(), name="checkin-badge"
    ),
    path(
        MANAGE + "rounds/<int:number>/attendance/",
        checkin.AttendanceView.as_view(),
        name="attendance",
    ),
    path(MANAGE + "rounds/<int:number>/board/", board.BoardView.as_view(), name="board"),
    path(
        MANAGE + "rounds/<int:number>/tables/<int:table>/seated/",
        checkin.SeatedView.as_view(),
        name="seated",
    ),
]
