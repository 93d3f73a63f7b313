from django.core.management.base import BaseCommand

from tournaments.services.demo import DEMO_SLUG, load_demo


class Command(BaseCommand):
    help = "Load the demo Guandan event (24 teams, 6 units) and a login for every role."

    def handle(self, *args, **options):
        logins = load_demo()
        self.stdout.write(self.style.SUCCESS(f"Demo event: http://127.0.0.1:8000/t/{DEMO_SLUG}/"))
        self.stdout.write("Logins (username / password — role):")
        for username, password, what in logins:
            self.stdout.write(f"  {username:<11} / {password} — {what}")
