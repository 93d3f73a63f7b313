from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArbitrationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "arbitration"
    verbose_name = _("Arbitration")
