"""Background jobs (PDF scoresheets, standings PDF, large team imports) with progress.

``heartbeat_at`` is touched by every step a worker takes for the job; a pending or running
job whose heartbeat is old has lost its worker, and the sweep (services/jobs.py) queues its
missing work again, counting ``restarts``.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Event


class Job(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="jobs")
    kind = models.CharField(_("kind"), max_length=60)
    params = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    file = models.FileField(upload_to="exports/", blank=True)
    error = models.TextField(blank=True)
    report = models.JSONField(default=dict, blank=True)  # an import: {"created", "errors"}
    task_id = models.CharField(max_length=64, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    restarts = models.PositiveSmallIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("job")
        verbose_name_plural = _("jobs")

    def __str__(self) -> str:
        return f"{self.kind} · {self.get_status_display()}"

    @property
    def percent(self) -> int:
        return (
            int(100 * self.progress / self.total)
            if self.total
            else (100 if self.status == "done" else 0)
        )
