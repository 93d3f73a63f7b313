"""The one service error and its two mappings: the API's JSON and the pages."""

import html

import pytest
from django import forms
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy
from django.views.generic import FormView, View

from arbitration.services import ArbitrationError, ArbitrationForbidden
from rules_engine import ladder
from rules_engine.errors import RulesError
from tournaments.api.errors import exception_handler
from tournaments.errors import Forbidden, NotFound, ServiceError
from tournaments.exporters.base import ExportError
from tournaments.services.registration_import import ImportFileError
from tournaments.services.results import ChangedMeanwhile, ResultError, ResultForbidden
from tournaments.services.round_close import RoundCloseError, RoundCloseForbidden
from tournaments.services.rounds import RoundError, RoundForbidden
from tournaments.views.mixins import ServiceErrorMixin

TEMPLATE = gettext_lazy("Round %(n)s is not published yet.")


def engine_refusal() -> RulesError:
    try:
        ladder.check_step("banishment", "guandan")
    except RulesError as err:
        return err
    raise AssertionError("check_step accepted an unknown step")


def test_every_domain_error_is_a_service_error_and_forbidden_ones_are_403():
    for cls in (ResultError, ChangedMeanwhile, RoundError, RoundCloseError, ExportError,
                ImportFileError, ArbitrationError):  # fmt: skip
        assert issubclass(cls, ServiceError)
    for cls in (ResultForbidden, RoundForbidden, RoundCloseForbidden, Forbidden):
        assert issubclass(cls, Forbidden) and cls("x").status == 403
    assert ArbitrationForbidden("x").status == 403
    assert NotFound("x").status == 404 and ResultError("x", status=404).status == 404


def test_the_message_is_rendered_when_shown_in_the_active_language():
    error = ResultError(TEMPLATE, "round", n=3)
    with translation.override("zh-hans"):
        assert error.message == "第 3 轮尚未公布。"
    with translation.override("en"):
        assert error.message == str(error) == "Round 3 is not published yet."


def test_an_engine_refusal_converts_with_its_field_under_a_prefix():
    err = engine_refusal()
    plain, prefixed = ServiceError.from_rules(err), ResultError.from_rules(err, "record")
    assert plain.field == "step" and prefixed.field == "record.step"
    assert isinstance(prefixed, ResultError) and prefixed.status == 400
    with translation.override("en"):  # shown to people: the game by its name (issue 24)
        assert plain.message == str(err.message).replace("in guandan", "in Guandan")


def api_answer(exc, language="en"):
    with translation.override(language):
        response = exception_handler(exc, {})
    return response.status_code, response.data


@pytest.mark.parametrize(
    ("error", "status"),
    [(ResultError("bad", "record"), 400), (ResultForbidden("no", "record"), 403),
     (NotFound("gone", "record"), 404), (RoundError("bad", "record"), 400),
     (ExportError("bad", "record"), 400), (ArbitrationForbidden("no", "record"), 403)],
)  # fmt: skip
def test_the_api_answers_error_field_and_code_with_the_errors_status(error, status):
    code = {400: "invalid", 403: "forbidden", 404: "not_found"}[status]
    assert api_answer(error) == (status, {"error": error.message, "field": "record", "code": code})


def test_the_api_renders_in_the_request_language_and_adds_the_errors_extras():
    assert api_answer(ResultError(TEMPLATE, "round", n=2), "zh-hans") == (
        400, {"error": "第 2 轮尚未公布。", "field": "round", "code": "invalid"}
    )  # fmt: skip
    code, body = api_answer(RoundCloseError("pending", "round", pending=[3, 4]))
    assert code == 400 and body["tables"] == [3, 4]


def test_an_engine_refusal_reaching_the_api_is_a_400_naming_its_field():
    code, body = api_answer(engine_refusal(), "zh-hans")
    assert code == 400 and body["field"] == "step"
    assert any("\u4e00" <= c <= "\u9fff" for c in body["error"])


class NameForm(forms.Form):
    name = forms.CharField()


class FormPage(ServiceErrorMixin, FormView):
    form_class = NameForm
    template_name = "_form.html"

    def form_valid(self, form):
        raise ResultError(TEMPLATE, "name", n=7)


class ActionPage(ServiceErrorMixin, View):
    error = ResultError(TEMPLATE, "round", n=5)

    def get(self, request):
        raise self.error

    def post(self, request):
        raise self.error

    def error_url(self):
        return "/back/"


@pytest.fixture
def rf_request(rf):
    from django.contrib.messages.storage.fallback import FallbackStorage

    def make(method="get", data=None, language="en"):
        request = getattr(rf, method)("/page/", data or {})
        request.session = {}
        request._messages = FallbackStorage(request)
        translation.activate(language)
        return request

    yield make
    translation.deactivate()


def test_a_refused_form_is_shown_again_with_the_message_on_its_field_and_a_400(rf_request):
    response = FormPage.as_view()(rf_request("post", {"name": "x"}, "zh-hans"))
    assert response.status_code == 400
    assert "第 7 轮尚未公布。" in html.unescape(response.rendered_content)


def test_a_refused_action_says_why_and_goes_back(rf_request):
    request = rf_request("post")
    response = ActionPage.as_view()(request)
    assert response.status_code == 302 and response.url == "/back/"
    assert [str(m) for m in get_messages(request)] == ["Round 5 is not published yet."]


def test_a_refused_page_shows_the_message_with_the_errors_status(rf_request):
    response = ActionPage.as_view()(rf_request("get", language="zh-hans"))
    assert response.status_code == 400
    assert "第 5 轮尚未公布。" in html.unescape(response.content.decode())


@pytest.mark.parametrize(("error", "raised"), [
    (ResultForbidden("no"), "PermissionDenied"), (NotFound("gone"), "Http404"),
])  # fmt: skip
def test_forbidden_and_not_found_become_the_403_and_404_pages(rf_request, error, raised):
    view = type("Page", (ActionPage,), {"error": error}).as_view()
    with pytest.raises(Exception) as caught:
        view(rf_request())
    assert type(caught.value).__name__ == raised and str(caught.value) == error.message


def test_the_403_page_says_why_in_the_page_language(client, make_tournament, make_user, grant):
    from tournaments.models import Round

    event = make_tournament(teams=2)
    Round.objects.create(tournament=event, number=1, status=Round.Status.COMPLETE)
    client.force_login(grant(make_user(), event, "captain", team=event.teams.first()))
    url = reverse("tournaments:round-close", args=[event.slug, 1])
    response = client.post(url, {"action": "finalise"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    assert "Only the organiser or the chief referee may finalise a round." in html.unescape(
        response.content.decode()
    )
    assert Round.objects.get(tournament=event).status == Round.Status.COMPLETE


def test_a_service_refusal_is_one_error_shown_in_either_language(db):
    from tournaments.services import table_keys

    with pytest.raises(ResultError) as caught:
        table_keys.live_key("no-such-key")
    assert caught.value.status == 404 and caught.value.field == "key"
    with translation.override("en"):
        assert caught.value.message == "This table link is unknown or was revoked."
    with translation.override("zh-hans"):
        assert caught.value.message != "This table link is unknown or was revoked."


def test_a_registration_clash_is_a_refusal_naming_the_field(make_tournament, make_user, grant):
    from tournaments.models import Team
    from tournaments.services.registration import save_team

    event = make_tournament()
    organiser = grant(make_user(), event, "organiser")
    fields = {"unit_name": "", "players": ["甲", "乙"], "seed": None}
    save_team(event, organiser, name="龙城队", **fields)
    with pytest.raises(ServiceError) as caught:
        save_team(event, organiser, name="龙城队", **fields)
    assert caught.value.status == 400 and caught.value.field == "name"
    assert Team.objects.filter(tournament=event).count() == 1
