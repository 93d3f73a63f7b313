"""URL patterns of table assignment and the audit log (merged into the tournaments namespace)."""

from django.urls import path

from .views import assignments, audit

MANAGE = "t/<slug:slug>/manage/"

urlpatterns: list = [
    path(MANAGE + "assignments/", assignments.AssignmentsView.as_view(), name="assignments"),
    path(MANAGE + "audit/", audit.AuditLogView.as_view(), name="audit"),
]
