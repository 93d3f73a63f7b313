from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/arbitration/", include("arbitration.api_urls")),
    path("api/", include("tournaments.api.urls")),
    path("arbitration/", include("arbitration.urls")),
    path("", include("tournaments.urls")),
]

handler403 = "tournaments.views.errors.permission_denied"
handler404 = "tournaments.views.errors.page_not_found"
handler500 = "tournaments.views.errors.server_error"
