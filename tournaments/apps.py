from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Events")

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import pre_delete

        from tournaments.services.users import refuse_deleting_history

        from . import checks, freshness  # noqa: F401 - checks registers the system checks

        pre_delete.connect(
            refuse_deleting_history, sender=get_user_model(), dispatch_uid="paisai-user-history"
        )
        freshness.connect()
