from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from tournaments.views.logins import ApiTokenPage

urlpatterns = [
    path("api/", include("tournaments.api.urls")),  # first: the most requested (results, public)
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/api-token/", ApiTokenPage.as_view(), name="api-token"),
    # Password reset by e-mail (console backend unless EMAIL_HOST is set).
    path("accounts/password_reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file: no inline script (CSP).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/arbitration/", include("arbitration.api_urls")),
    path("arbitration/", include("arbitration.urls")),
    path("", include("tournaments.urls")),
]

handler400 = "tournaments.views.errors.bad_request"
handler403 = "tournaments.views.errors.permission_denied"
handler404 = "tournaments.views.errors.page_not_found"
handler500 = "tournaments.views.errors.server_error"
