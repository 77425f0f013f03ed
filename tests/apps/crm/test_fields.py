"""The field rules: amounts are read as people type them, in the one place every
caller (forms, CSV import, tools) cleans values, and anything else is refused with a
message that names the field."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.crm import csv_io
from officegym.apps.crm.fields import FieldError, clean
from officegym.apps.crm.models import Account

from .helpers import cast


@pytest.mark.parametrize(
    "typed", ["15500", "15,500", "$15,500", "15500.00", "$15,500.00", " $ 15,500 ", 15500]
)
def test_an_amount_is_read_as_people_type_it(db: Session, typed: object) -> None:
    assert clean(db, "opportunity", "amount", typed) == 15500
    assert clean(db, "account", "annual_revenue", typed) == 15500


@pytest.mark.parametrize("typed", ["fifteen", "15.5k", "1,5,00", "15500.50", "$", "€15,500"])
def test_an_amount_that_is_not_a_number_is_refused_clearly(db: Session, typed: str) -> None:
    with pytest.raises(FieldError) as caught:
        clean(db, "opportunity", "amount", typed)
    assert caught.value.field == "amount"
    assert "opportunity amount: must be" in caught.value.message
    assert repr(typed) in caught.value.message or typed in caught.value.message


def test_a_negative_amount_is_refused_by_its_bounds(db: Session) -> None:
    with pytest.raises(FieldError, match="must be a whole number from 0"):
        clean(db, "opportunity", "amount", "-$5")


def test_a_count_takes_thousands_separators_but_no_dollar_sign(db: Session) -> None:
    assert clean(db, "account", "employees", "1,200") == 1200
    with pytest.raises(FieldError, match="account employees: must be a whole number"):
        clean(db, "account", "employees", "$1,200")


def test_a_csv_import_reads_formatted_amounts_as_the_form_does(db: Session) -> None:
    admin = cast(db).admin
    text = 'name,type,annual_revenue\nFormatted Revenue Ltd,Prospect,"$2,500,000"\n'
    result = csv_io.import_csv(db, admin, "account", text)
    assert result.ok, result
    made = db.scalars(select(Account).where(Account.name == "Formatted Revenue Ltd")).one()
    assert made.annual_revenue == 2_500_000
