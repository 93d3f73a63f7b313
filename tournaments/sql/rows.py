"""Rows on the hottest paths, as SQL built once per process from the models' own field lists.

The ORM builds and compiles a query object for every ``get()`` and every ``save()``. On the
paths every request takes — the session and the user of each logged-in request, the match of
each result, the version and the audit entry each result writes — compiling cost more CPU
than the database needs to answer (bench/results_load.py prints the profile). Here the SQL is
built once per model and connection from ``_meta`` (a field added to a model is selected and
inserted without touching this module), and rows become instances as the ORM makes them:

- :func:`select_one`: one row as an instance (``from_db``, through the fields' converters);
- :func:`insert`: what ``save(force_insert=True)`` does for a new row — ``pre_save`` (e.g.
  ``auto_now_add``), the fields' database values, ``INSERT … RETURNING`` the primary key, and
  the ``pre_save``/``post_save`` signals (the event revision follows a counting version).

For models with no parent model; inserts for those with an automatic primary key (checked).
"""

from __future__ import annotations

from functools import cache

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import AutoField, Model
from django.db.models.signals import post_save, pre_save


def _plain(model: type[Model], auto_key: bool = False) -> None:
    meta = model._meta
    if meta.parents or (auto_key and not isinstance(meta.pk, AutoField)):
        raise TypeError(f"{meta.label}: rows handles models with no parent (an auto key to insert)")


@cache
def columns(model: type[Model], alias: str) -> tuple[list[str], str]:
    """(attribute names, ``alias."column", …``) of the model's concrete fields, in order."""
    fields = model._meta.concrete_fields
    return [f.attname for f in fields], ", ".join(f'{alias}."{f.column}"' for f in fields)


def instance(model: type[Model], values, using: str = DEFAULT_DB_ALIAS) -> Model:
    """The instance of a row of :func:`columns` values, as the ORM's iterator makes it."""
    fields = model._meta.concrete_fields
    converted = [
        field_value(model, field.name, value, using)
        for field, value in zip(fields, values, strict=True)
    ]
    return model.from_db(using, columns(model, "x")[0], converted)


def field_value(model: type[Model], name: str, value, using: str = DEFAULT_DB_ALIAS):
    """A value of the field ``name`` as the database sent it, as the ORM would read it (e.g.
    SQLite's text of a time → an aware datetime)."""
    col, converters = _converters(model, name, using)
    for converter in converters:
        value = converter(value, col, connections[using])
    return value


@cache
def _converters(model: type[Model], name: str, using: str) -> tuple:
    connection = connections[using]
    col = model._meta.get_field(name).get_col(model._meta.db_table)
    return col, (*connection.ops.get_db_converters(col), *col.get_db_converters(connection))


def select_one(model: type[Model], where: str, params, using: str = DEFAULT_DB_ALIAS):
    """The first row of ``model`` matching ``where`` (SQL on the alias ``x``), or None."""
    sql = _select_sql(model, where)
    with connections[using].cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return None if row is None else instance(model, row, using)


@cache
def _select_sql(model: type[Model], where: str) -> str:
    _plain(model)
    return f"SELECT {columns(model, 'x')[1]} FROM {model._meta.db_table} x WHERE {where} LIMIT 1"


def insert(obj: Model, using: str = DEFAULT_DB_ALIAS) -> Model:
    """Insert ``obj`` as a new row and set its primary key (``save(force_insert=True)``)."""
    model = type(obj)
    connection = connections[using]
    fields, sql, returning = _insert_sql(model, using)
    pre_save.send(sender=model, instance=obj, raw=False, using=using, update_fields=None)
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection=connection) for f in fields]
    with transaction.mark_for_rollback_on_error(using), connection.cursor() as cursor:
        cursor.execute(sql, values)
        if returning is not None:
            (pk,) = connection.ops.fetch_returned_insert_columns(cursor, returning)
        else:
            pk = connection.ops.last_insert_id(cursor, model._meta.db_table, model._meta.pk.column)
    obj.pk = model._meta.pk.to_python(pk)
    obj._state.adding, obj._state.db = False, using
    post_save.send(
        sender=model, instance=obj, created=True, update_fields=None, raw=False, using=using
    )
    return obj


@cache
def _insert_sql(model: type[Model], using: str) -> tuple[list, str, list | None]:
    _plain(model, auto_key=True)
    connection = connections[using]
    meta = model._meta
    fields = [f for f in meta.local_concrete_fields if f is not meta.auto_field and not f.generated]
    sql = (
        f"INSERT INTO {connection.ops.quote_name(meta.db_table)} "
        f"({', '.join(connection.ops.quote_name(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    returning = None
    if connection.features.can_return_columns_from_insert:
        clause, returning = connection.ops.return_insert_columns([meta.pk])
        sql = f"{sql} {clause}"
    return fields, sql, returning
