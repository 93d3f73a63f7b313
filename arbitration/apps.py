from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArbitrationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "arbitration"
    verbose_name = _("Arbitration")

    def ready(self) -> None:
        from arbitration.services import homes

        from . import audit_actions  # noqa: F401  (declares arbitration's audit actions)

        homes.register()  # the arbitration panels of the roles' homes
