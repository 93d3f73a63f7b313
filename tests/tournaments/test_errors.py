"""The one service error family, its codes and its two mappings: the API's JSON and the pages.

The build checks the family (issue 29): the services raise nothing else (an AST scan), every
code is declared once (``tournaments.errors.Code``) and read by the scripts as declared, and
every JSON error answer carries ``{"error", "field", "code"}``.
"""

import ast
import html
import inspect
import re
import typing
from importlib import import_module
from pathlib import Path

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
from tournaments.errors import Code, ExportError, Forbidden, NotFound, ServiceError
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
    for cls in (
        ResultError,
        ChangedMeanwhile,
        RoundError,
        RoundCloseError,
        ExportError,
        ImportFileError,
        ArbitrationError,
    ):
        assert issubclass(cls, ServiceError)
    for cls in (ResultForbidden, RoundForbidden, RoundCloseForbidden, Forbidden):
        assert issubclass(cls, Forbidden) and cls("x").status == 403
    assert ArbitrationForbidden("x").status == 403
    assert NotFound("x").status == 404 and ResultError("x", None, Code.NOT_FOUND).status == 404


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
    [
        (ResultError("bad", "record"), 400),
        (ResultForbidden("no", "record"), 403),
        (NotFound("gone", "record"), 404),
        (RoundError("bad", "record"), 400),
        (ExportError("bad", "record"), 400),
        (ArbitrationForbidden("no", "record"), 403),
    ],
)
def test_the_api_answers_error_field_and_code_with_the_errors_status(error, status):
    code = {400: "invalid", 403: "forbidden", 404: "not_found"}[status]
    assert api_answer(error) == (status, {"error": error.message, "field": "record", "code": code})


def test_the_api_renders_in_the_request_language_and_adds_the_errors_extras():
    assert api_answer(ResultError(TEMPLATE, "round", n=2), "zh-hans") == (
        400,
        {"error": "第 2 轮尚未公布。", "field": "round", "code": "invalid"},
    )
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


@pytest.mark.parametrize(
    ("error", "raised"),
    [
        (ResultForbidden("no"), "PermissionDenied"),
        (NotFound("gone"), "Http404"),
    ],
)
def test_forbidden_and_not_found_become_the_403_and_404_pages(rf_request, error, raised):
    view = type("Page", (ActionPage,), {"error": error}).as_view()
    with pytest.raises(Exception) as caught:
        view(rf_request())
    assert type(caught.value).__name__ == raised and str(caught.value) == error.message


def test_the_403_page_says_why_in_the_page_language(client, make_event, make_user, grant):
    from tournaments.models import Round

    event = make_event(teams=2)
    Round.objects.create(event=event, number=1, status=Round.Status.COMPLETE)
    client.force_login(grant(make_user(), event, "captain", team=event.teams.first()))
    url = reverse("tournaments:round-close", args=[event.slug, 1])
    response = client.post(url, {"action": "finalise"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    assert "Only the organiser or the chief referee may finalise a round." in html.unescape(
        response.content.decode()
    )
    assert Round.objects.get(event=event).status == Round.Status.COMPLETE


def test_a_service_refusal_is_one_error_shown_in_either_language(db):
    from tournaments.services import table_keys

    with pytest.raises(ResultError) as caught:
        table_keys.live_key("no-such-key")
    assert caught.value.status == 404 and caught.value.field == "key"
    with translation.override("en"):
        assert caught.value.message == "This table link is unknown or was revoked."
    with translation.override("zh-hans"):
        assert caught.value.message != "This table link is unknown or was revoked."


def test_a_registration_clash_is_a_refusal_naming_the_field(make_event, make_user, grant):
    from tournaments.models import Team
    from tournaments.services.registration import save_team

    event = make_event()
    organiser = grant(make_user(), event, "organiser")
    fields = {"unit_name": "", "players": ["甲", "乙"], "seed": None}
    save_team(event, organiser, name="龙城队", **fields)
    with pytest.raises(ServiceError) as caught:
        save_team(event, organiser, name="龙城队", **fields)
    # the event's present teams refuse it: a conflict (409), naming the field
    assert caught.value.status == 409 and caught.value.field == "name"
    assert Team.objects.filter(event=event).count() == 1


# --- the family, checked by the build -------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
# The services: what pages, the API and tasks call to act (the modules that refuse).
SERVICE_MODULES = sorted(
    {
        *(ROOT / "tournaments" / "services").glob("*.py"),
        *(ROOT / "arbitration" / "services").glob("*.py"),
        *(ROOT / "tournaments" / "exporters").glob("*.py"),
        *(
            ROOT / p
            for p in (
                "tournaments/pairing/service.py",
                "tournaments/standings/service.py",
                "tournaments/validation.py",
                "tournaments/halls.py",
            )
        ),
    }
)
# Faults of the code, never refusals: an abstract method, a branch that cannot be reached.
NOT_REFUSALS = (NotImplementedError, AssertionError)


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def namespace(module, tree: ast.AST) -> dict:
    """The module's names, and those its functions import where they are used."""
    names = dict(vars(module))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                name = alias.asname or alias.name
                if name not in names:
                    names[name] = imported(node.module, alias.name)
    return names


def imported(module: str, name: str):
    """``from module import name``: a name of the module, or its submodule."""
    found = getattr(import_module(module), name, None)
    return found if found is not None else import_module(f"{module}.{name}")


def raised_class(expr: ast.expr, names: dict) -> type | None:
    """The class an expression raises: ``Error(...)``, ``Error``, ``Error.from_rules(...)`` or a
    function annotated as returning one (``pairing_failed(...)``). None: a caught one raised
    again (``raise err``)."""
    target = expr.func if isinstance(expr, ast.Call) else expr
    try:
        found = eval(compile(ast.Expression(target), "<raise>", "eval"), names)  # noqa: S307
    except NameError:
        assert not isinstance(expr, ast.Call), f"cannot tell what {ast.unparse(expr)} raises"
        return None
    if inspect.isclass(found):
        return found
    if inspect.ismethod(found) and inspect.isclass(found.__self__):  # Error.from_rules(...)
        return found.__self__
    if inspect.isfunction(found):
        return typing.get_type_hints(found).get("return")
    raise AssertionError(f"cannot tell what {ast.unparse(expr)} raises")


def test_the_services_raise_only_the_service_error_family():
    """No ValueError, Http404, PermissionDenied or an exception of its own outside the family:
    every refusal has its words, its field and its code."""
    found = []
    for path in SERVICE_MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = namespace(import_module(module_name(path)), tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Raise) or node.exc is None:
                continue
            cls = raised_class(node.exc, names)
            if cls is None or issubclass(cls, (ServiceError, *NOT_REFUSALS)):
                continue
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {cls.__name__}")
    assert not found, f"refusals outside the ServiceError family: {found}"


def family() -> list[type]:
    import arbitration.services.appeals  # noqa: F401  (every module that declares a member)
    import tournaments.services.users  # noqa: F401

    for path in SERVICE_MODULES:
        import_module(module_name(path))
    seen, todo = [], [ServiceError]
    while todo:
        cls = todo.pop()
        seen.append(cls)
        todo.extend(sub for sub in cls.__subclasses__() if sub not in seen)
    return seen


def test_every_member_of_the_family_has_a_declared_code():
    for cls in family():
        assert isinstance(cls.code, Code), f"{cls.__qualname__}.code is not a Code"
    for name in ("BadInput", "UnlockRefused", "SpreadsheetRefused", "UserHasHistory"):
        assert name in {cls.__name__ for cls in family()}, name


def test_every_code_is_declared_once_with_its_status():
    """One list (Code, @unique): no two codes share a value; a code that a class declares is
    declared by that class alone; the engine's codes are in it."""
    from rules_engine import phone

    values = [code.value for code in Code]
    assert len(values) == len(set(values))
    assert all(re.fullmatch(r"[a-z][a-z_]*", v) for v in values)
    assert all(100 <= code.status < 600 for code in Code)
    assert {phone.INVALID, phone.DEAL_REFUSED, phone.GAME_REFUSED, phone.RECORD_REFUSED} <= set(
        Code
    )
    owners: dict[Code, list[str]] = {}
    for cls in family():
        if "code" in vars(cls) and cls.code not in (
            Code.INVALID,
            Code.FORBIDDEN,
            Code.NOT_FOUND,
            Code.CONFLICT,
        ):
            owners.setdefault(cls.code, []).append(cls.__qualname__)
    assert all(len(names) == 1 for names in owners.values()), owners
    # and no code is declared that nothing answers with (the engine's are given by phone)
    sources = "\n".join(
        path.read_text(encoding="utf-8")
        for package in ("tournaments", "arbitration", "config")
        for path in (ROOT / package).rglob("*.py")
        if path.name != "errors.py" or path.parent.name != "tournaments"
    )
    engine = {phone.DEAL_REFUSED, phone.GAME_REFUSED, phone.RECORD_REFUSED}
    unused = [
        code.name for code in Code if code not in engine and f"Code.{code.name}" not in sources
    ]
    assert not unused, f"codes nothing answers with: {unused}"


def string_codes(tree: ast.AST):
    """``"code": "x"``, ``code="x"``, ``code = "x"`` and ``code_name = "x"``: a code written as
    a string instead of a member of Code."""
    for node in ast.walk(tree):
        pairs = []
        if isinstance(node, ast.Dict):
            pairs = [
                (k.value, v)
                for k, v in zip(node.keys, node.values, strict=True)
                if isinstance(k, ast.Constant)
            ]
        elif isinstance(node, ast.Call):
            pairs = [(k.arg, k.value) for k in node.keywords]
        elif isinstance(node, ast.Assign):
            pairs = [(t.id, node.value) for t in node.targets if isinstance(t, ast.Name)]
        for key, value in pairs:
            if (
                key in ("code", "code_name")
                and isinstance(value, ast.Constant)
                and isinstance(value.value, str)
            ):
                yield node.lineno, value.value


def test_no_code_is_written_as_a_string_outside_the_one_list():
    found = []
    for package in ("tournaments", "arbitration", "config"):
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts or path.name == "errors.py":
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for line, value in string_codes(tree):
                if value in set(Code):  # a language code or a card code is no error code
                    found.append(f"{path.relative_to(ROOT)}:{line}: {value!r}")
    assert not found, f"codes written as strings (use tournaments.errors.Code): {found}"


JS_CODE = re.compile(r"\bcode\s*[!=]==?\s*\"([a-z_]+)\"")
JS_FIELD_TEST = re.compile(
    r"\.field\s*[!=]==?|\.field\.(?:match|test|startsWith|indexOf)\b"
    r"|/[^/\n]+/\.test\([^)]*field"
)


def test_the_scripts_read_declared_codes_never_fields():
    """The pages' scripts decide on ``code`` (a member of Code), not on ``field`` or a regex
    over a field path."""
    undeclared, on_fields = [], []
    for path in sorted((ROOT / "static" / "js").glob("*.*js")):
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), start=1):
            undeclared += [
                f"{path.name}:{number}: {c}" for c in JS_CODE.findall(line) if c not in set(Code)
            ]
            if JS_FIELD_TEST.search(line):
                on_fields.append(f"{path.name}:{number}: {line.strip()}")
    assert not undeclared, f"codes the scripts read that Code does not declare: {undeclared}"
    assert not on_fields, f"scripts deciding on a field instead of a code: {on_fields}"


# --- every JSON error answer: {"error", "field", "code"} ------------------------------------


def assert_error_shape(response, status: int, code: Code) -> dict:
    body = response.json()
    assert response.status_code == status, body
    assert {"error", "field", "code"} <= set(body), body
    assert body["code"] == code and isinstance(body["error"], str) and body["error"]
    return body


@pytest.mark.django_db
def test_every_json_error_answer_has_error_field_and_code(client, make_event, make_user):
    from rest_framework.test import APIClient

    event = make_event(teams=2)
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    teams = f"/api/tournaments/{event.slug}/teams/"
    assert_error_shape(api.get("/api/tournaments/no-such-event/teams/"), 404, Code.NOT_FOUND)
    assert_error_shape(api.post(teams, {}, format="json"), 403, Code.LOGIN)
    api.force_authenticate(make_user())
    assert_error_shape(
        api.put("/api/tournaments/", {}, format="json"), 405, Code.METHOD_NOT_ALLOWED
    )
    assert (
        assert_error_shape(api.post(teams, {}, format="json"), 403, Code.FORBIDDEN)["field"] is None
    )
    bad = api.post("/api/tournaments/", "{nope", content_type="application/json")
    assert_error_shape(bad, 400, Code.INVALID)
    # outside the framework: the request-validation layer and the error handlers
    assert_error_shape(client.get(f"{teams}?q=a%00b"), 400, Code.INVALID)
    assert_error_shape(client.get("/api/no-such-page/"), 404, Code.NOT_FOUND)


def test_a_user_with_history_is_refused_with_its_code(make_event, make_user):
    from django.db import transaction

    from tournaments.services.audit import log_action
    from tournaments.services.users import UserHasHistory

    event = make_event()
    user = make_user()
    log_action(event, user, "event.settings", event)
    with pytest.raises(UserHasHistory) as caught, transaction.atomic():
        user.delete()
    assert caught.value.code == Code.USER_HAS_HISTORY and caught.value.status == 409
    assert user.get_username() in caught.value.message
