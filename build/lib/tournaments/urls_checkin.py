"""URL patterns of check-in, leaves, attendance, the operations board and the calls from tables
(merged into the tournaments namespace)."""

from django.urls import path

from .views import board, calls, checkin

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
    path("t/<slug:slug>/table/<int:table>/call/", calls.TableCallView.as_view(), name="table-call"),
    path("table/<str:key>/call/", calls.TableKeyCallView.as_view(), name="table-key-call"),
]
