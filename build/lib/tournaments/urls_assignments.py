"""URL patterns of table assignment, the audit log and the prize list (merged into the tournaments namespace)."""

from django.urls import path

from .views import assignments, audit, prizes

MANAGE = "t/<slug:slug>/manage/"

urlpatterns: list = [
    path(MANAGE + "assignments/", assignments.AssignmentsView.as_view(), name="assignments"),
    path(MANAGE + "audit/", audit.AuditLogView.as_view(), name="audit"),
    path(MANAGE + "prizes/", prizes.PrizesView.as_view(), name="prizes"),
]
