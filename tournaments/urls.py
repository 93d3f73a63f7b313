from django.urls import path

from . import (
    urls_accounts,
    urls_assignments,
    urls_checkin,
    urls_homes,
    urls_public,
    urls_results,
    urls_rounds,
    urls_stages,
)
from .views import creators, event_settings, events, logins, offline, public, registration

app_name = "tournaments"

urlpatterns = [
    path("", public.HomeView.as_view(), name="home"),
    path("sw.js", offline.ServiceWorkerView.as_view(), name="service-worker"),
    path("engine/<str:name>", offline.EngineZipView.as_view(), name="offline-engine"),
    path("new/", registration.EventCreateView.as_view(), name="create"),
    path("event-creators/", creators.EventCreatorsView.as_view(), name="creators"),
    path("t/<slug:slug>/", public.EventDetailView.as_view(), name="detail"),
    path("t/<slug:slug>/manage/", registration.ConsoleView.as_view(), name="console"),
    path("t/<slug:slug>/manage/status/", events.EventStatusView.as_view(), name="event-status"),
    path(
        "t/<slug:slug>/manage/settings/",
        event_settings.EventSettingsView.as_view(),
        name="event-settings",
    ),
    path("t/<slug:slug>/manage/teams/new/", registration.TeamFormView.as_view(), name="team-add"),
    path(
        "t/<slug:slug>/manage/teams/<int:pk>/",
        registration.TeamFormView.as_view(),
        name="team-edit",
    ),
    path(
        "t/<slug:slug>/manage/teams/import/",
        registration.TeamImportView.as_view(),
        name="team-import",
    ),
    path(
        "t/<slug:slug>/manage/teams/template.xlsx",
        registration.TeamTemplateView.as_view(),
        name="team-template",
    ),
    path("t/<slug:slug>/manage/roles/new/", registration.RoleAddView.as_view(), name="role-add"),
    path(
        "t/<slug:slug>/manage/roles/<int:pk>/remove/",
        registration.RoleRemoveView.as_view(),
        name="role-remove",
    ),
    path("t/<slug:slug>/manage/lockouts/", logins.LockoutsPage.as_view(), name="lockouts"),
    *urls_rounds.urlpatterns,
    *urls_stages.urlpatterns,
    *urls_checkin.urlpatterns,
    *urls_homes.urlpatterns,
    *urls_accounts.urlpatterns,
    *urls_assignments.urlpatterns,
    *urls_results.urlpatterns,
    *urls_public.urlpatterns,
]
