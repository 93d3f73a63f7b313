"""Queue again the jobs whose worker died: manage.py sweep_jobs [--every SECONDS].

Celery beat runs the same sweep (tournaments.tasks.sweep_jobs); this command is for a
worker started without beat (cron, a systemd timer, or ``--every`` in a loop).
"""

import time

from django.core.management.base import BaseCommand

from tournaments import tasks


class Command(BaseCommand):
    help = "Queue again the missing work of background jobs no worker has touched lately."

    def add_arguments(self, parser):
        parser.add_argument(
            "--every", type=float, default=0, help="repeat every SECONDS (default: once)"
        )

    def handle(self, every=0, **options):
        while True:
            count = tasks.sweep_jobs()
            self.stdout.write(f"{count} job(s) queued again")
            if every <= 0:
                return
            time.sleep(every)
