"""URL patterns of accounts without the admin (merged into the tournaments namespace)."""

from django.urls import path

from .views import accounts

MANAGE = "t/<slug:slug>/manage/"

urlpatterns: list = [
    path(MANAGE + "accounts/", accounts.AccountsView.as_view(), name="accounts"),
    path(MANAGE + "accounts/captains/", accounts.CaptainLinksView.as_view(), name="captain-links"),
    path(MANAGE + "teams/search/", accounts.TeamSearchView.as_view(), name="team-search"),
    path("login/<str:key>/", accounts.LoginLinkView.as_view(), name="login-link"),
    path("accounts/set-password/", accounts.SetPasswordView.as_view(), name="set-password"),
    path("accounts/invitations/", accounts.InvitationsView.as_view(), name="invitations"),
    path(
        "accounts/invitations/<int:pk>/",
        accounts.InvitationAnswerView.as_view(),
        name="invitation-answer",
    ),
]
