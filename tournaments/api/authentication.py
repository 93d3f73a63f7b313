"""API authentication: basic auth throttled like the login page (django-axes).

The credentials are checked against the Django request itself (not DRF's wrapper), so that
axes marks it: a locked account or address is refused before any password is hashed, and
the answer is the lockout's ``{"error", "field"}`` with status 429.
"""

from __future__ import annotations

from django.contrib.auth import authenticate, get_user_model
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions


class ThrottledBasicAuthentication(authentication.BasicAuthentication):
    def authenticate_credentials(self, userid, password, request=None):
        django_request = getattr(request, "_request", request)
        credentials = {get_user_model().USERNAME_FIELD: userid, "password": password}
        user = authenticate(request=django_request, **credentials)
        if user is None:
            raise exceptions.AuthenticationFailed(_("Invalid username or password."))
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("This account is closed."))
        return (user, None)


class ThrottledBasicScheme(OpenApiAuthenticationExtension):
    target_class = ThrottledBasicAuthentication
    name = "basicAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "basic"}
