"""URL patterns of the stages area (merged into the tournaments namespace)."""

from django.urls import path

from .views import stages

MANAGE = "t/<slug:slug>/manage/"
STAGE = MANAGE + "stages/<int:pk>/"

urlpatterns: list = [
    path(MANAGE + "stages/", stages.StageListView.as_view(), name="stages"),
    path(MANAGE + "stages/new/", stages.StageCreateView.as_view(), name="stage-add"),
    path(STAGE, stages.StageDetailView.as_view(), name="stage"),
    path(STAGE + "sections/", stages.SectionCreateView.as_view(), name="stage-section-add"),
    path(STAGE + "assign/", stages.AssignView.as_view(), name="stage-assign"),
    path(STAGE + "split/", stages.SplitView.as_view(), name="stage-split"),
    path(STAGE + "draw/", stages.DrawView.as_view(), name="stage-draw"),
]
