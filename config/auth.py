"""The login backend: Django's ModelBackend, with the user of each request read by SQL built
once per process (``get_user`` runs on every logged-in request; compiling the ORM's
``get(pk=…)`` cost about a twelfth of a result submission's CPU). Passwords, permissions and
``is_active`` are Django's own."""

from __future__ import annotations

from django.contrib.auth import backends, get_user_model
from django.core.exceptions import ValidationError

from tournaments.sql import rows


class ModelBackend(backends.ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        """Django's; a username no user can have (a NUL, longer than the column) is no user,
        not a database error (issue 31: 500s on login and basic auth)."""
        name = username if username is not None else kwargs.get(get_user_model().USERNAME_FIELD)
        if name is not None and ("\x00" in str(name) or len(str(name)) > 150):
            get_user_model()().set_password(password or "")  # the time of a real check
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)

    def get_user(self, user_id):
        model = get_user_model()
        try:
            pk = model._meta.pk.to_python(user_id)
        except ValidationError:  # a malformed id in a session: nobody
            return None
        user = rows.select_one(model, f'x."{model._meta.pk.column}" = %s', [pk])
        return user if user is not None and self.user_can_authenticate(user) else None
