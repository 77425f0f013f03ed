"""A second LibreOffice corpus: the formulas business sheets use, over a realistic
order table, a rate table, a holiday list and dated cash flows (seeded, several
hundred formulas). `test_libreoffice_business.py` checks every one against LibreOffice
recalculating the same workbook; Google-only functions (REGEX*, JOIN, SORTN, the
operator functions ...) are checked through an equivalent LibreOffice 7.4 knows.

    python -m tests.apps.sheets.corpus_business out.xlsx
"""

from __future__ import annotations

import datetime as dt
import random
import sys

from tests.apps.sheets.corpus import Corpus, write_xlsx

_EPOCH = dt.date(1899, 12, 30)
REGIONS = ["East", "West", "North", "South"]
PRODUCTS = ["Widget", "Gadget", "Gizmo", "Doohickey", "Sprocket"]
STATUS = ["paid", "open", "overdue", "refunded"]
N = 60  # orders in rows 2..61


def _serial(d: dt.date) -> int:
    return (d - _EPOCH).days


def _orders(rng: random.Random) -> list[list[object]]:
    rows: list[list[object]] = [
        ["Order", "Date", "Region", "Product", "Qty", "Price", "Discount", "Email", "SKU", "Status"]
    ]
    start = dt.date(2024, 1, 2)
    for i in range(N):
        product = rng.choice(PRODUCTS)
        rows.append(
            [
                f"SO-{2024000 + i * 7}",
                _serial(start + dt.timedelta(days=rng.randint(0, 540))),
                rng.choice(REGIONS),
                product,
                rng.randint(1, 40),
                rng.choice([4.99, 12.5, 19.99, 49, 120, 275.25]),
                rng.choice([0, 0, 0.05, 0.1, 0.15]),
                f"{product.lower()}.buyer{i}@{rng.choice(['acme.com', 'mail.example.org'])}",
                f"{product[:3].upper()}-{rng.randint(100, 999)}-{rng.choice(['S', 'M', 'XL'])}",
                rng.choice(STATUS),
            ]
        )
    return rows


def _sheets(rng: random.Random) -> dict[str, list[list[object]]]:
    rates: list[list[object]] = [["Months", "Rate"]]
    rates += [[m, round(0.031 + m * 0.0007, 4)] for m in (6, 12, 24, 36, 48, 60, 84, 120)]
    holidays: list[list[object]] = [["Holiday"]]
    holidays += [
        [_serial(dt.date(y, m, d))]
        for y in (2024, 2025)
        for m, d in ((1, 1), (5, 27), (7, 4), (9, 2), (11, 28), (12, 25))
    ]
    cash: list[list[object]] = [["Date", "Flow"]]
    day = dt.date(2024, 1, 15)
    cash.append([_serial(day), -25000])
    for _ in range(1, 9):
        day += dt.timedelta(days=rng.randint(40, 120))
        cash.append([_serial(day), rng.choice([3000, 4200, 5100, 6000, -1500, 7300])])
    return {"Orders": _orders(rng), "Rates": rates, "Holidays": holidays, "Cash": cash}


ORD = "Orders!"
QTY, PRICE, DISC, REG, PROD, DATE = (f"{ORD}{c}2:{c}61" for c in "EFGCDB")


def _loans() -> list[str]:
    out = []
    for rate, n, pv in ((0.05 / 12, 60, 25000), (0.07 / 12, 36, 12000), (0.04 / 4, 20, 80000)):
        for per in (1, 2, n // 2, n):
            out += [f"IPMT({rate},{per},{n},{pv})", f"PPMT({rate},{per},{n},{pv})"]
            out += [f"IPMT({rate},{per},{n},{pv},0,1)", f"PPMT({rate},{per},{n},-{pv},1000,1)"]
        out += [f"CUMIPMT({rate},{n},{pv},1,12,0)", f"CUMPRINC({rate},{n},{pv},1,12,0)"]
        out += [f"CUMIPMT({rate},{n},{pv},{n // 2},{n},1)", f"CUMPRINC({rate},{n},{pv},2,{n},1)"]
    out += [
        "SUMPRODUCT(IPMT(0.06/12,{1,2,3,4,5,6,7,8,9,10,11,12},12,5000))",
        "XNPV(0.08,Cash!B2:B10,Cash!A2:A10)",
        "XNPV(0.12,Cash!B2:B10,Cash!A2:A10)",
        "MIRR(Cash!B2:B10,0.06,0.09)",
        "MIRR(Cash!B2:B10,0.1,0.12)",
        "FVSCHEDULE(1000,Rates!B2:B9)",
        "FVSCHEDULE(1,{0.05,0.04,-0.02})",
        "DOLLARDE(1.02,16)",
        "DOLLARDE(-3.1,8)",
        "DOLLARFR(1.125,16)",
        "DOLLARFR(2.5,4)",
    ]
    for r, p in ((0.0525, 4), (0.06, 12), (0.1, 365), (0.08, 2.7)):
        out += [f"EFFECT({r},{p})", f"NOMINAL({r},{p})"]
    for cost, salvage, life in ((30000, 7500, 10), (2400, 300, 5), (10000, 1000, 6.5)):
        out += [f"SLN({cost},{salvage},{life})"]
        for per in (1, 2, 5):
            out += [f"SYD({cost},{salvage},{life},{per})", f"DDB({cost},{salvage},{life},{per})"]
            out += [f"DB({cost},{salvage},{life},{per})", f"DB({cost},{salvage},{life},{per},7)"]
            out += [f"DDB({cost},{salvage},{life},{per},1.5)"]
    return out


def _stats() -> list[str]:
    out = []
    for rng_ in (QTY, PRICE, f"{ORD}E2:E30", "Cash!B2:B10"):
        out += [
            f"PERCENTILE.EXC({rng_},0.25)",
            f"PERCENTILE.EXC({rng_},0.9)",
            f"QUARTILE.EXC({rng_},1)",
            f"QUARTILE.EXC({rng_},3)",
            f"HARMEAN({rng_})" if "Cash" not in rng_ else f"AVEDEV({rng_})",
            f"TRIMMEAN({rng_},0.2)",
            f"AVEDEV({rng_})",
            f"DEVSQ({rng_})",
            f"SKEW({rng_})",
            f"KURT({rng_})",
            f"RANK.AVG(INDEX({rng_},8),{rng_})",
            f"RANK.AVG(INDEX({rng_},3),{rng_},1)",
        ]
    out += [f"RANK.AVG({ORD}E{r},{QTY},{r % 2})" for r in range(2, 14)]
    out += [
        f"SLOPE({PRICE},{QTY})",
        f"INTERCEPT({PRICE},{QTY})",
        f"RSQ({PRICE},{QTY})",
        f"PEARSON({PRICE},{QTY})",
        f"STEYX({PRICE},{QTY})",
        f"COVAR({PRICE},{QTY})",
        f"COVARIANCE.P({PRICE},{QTY})",
        f"COVARIANCE.S({PRICE},{QTY})",
        "SLOPE(Cash!B2:B10,Cash!A2:A10)",
        "INTERCEPT(Cash!B2:B10,Cash!A2:A10)",
        "FORECAST(50000,Cash!B2:B10,Cash!A2:A10)",
        "FORECAST.LINEAR(46000,Cash!B2:B10,Cash!A2:A10)",
        f"FORECAST(25,{PRICE},{QTY})",
        "SLOPE({1,2},{3,3})",
        "SUMX2MY2({2,3,9},{6,5,11})",
        "SUMX2PY2({2,3,9},{6,5,11})",
        "SUMXMY2({2,3,9},{6,5,11})",
        f"SUMX2MY2({ORD}E2:E20,{ORD}F2:F20)",
        "STANDARDIZE(42,40,1.5)",
        "NORM.DIST(42,40,1.5,TRUE)",
        "NORM.DIST(42,40,1.5,FALSE)",
        "NORMDIST(1,0,1,TRUE)",
        "NORM.S.DIST(1.96,TRUE)",
        "NORMSDIST(-1.2)",
        "NORM.INV(0.95,100,15)",
        "NORMINV(0.2,0,1)",
        "NORM.S.INV(0.975)",
        "NORMSINV(0.5)",
        "COMBIN(10,3)",
        "COMBIN(52,5)",
        "PERMUT(10,3)",
        f"SUM(FREQUENCY({QTY},{{5,10,20,30}}))",
        f"INDEX(FREQUENCY({QTY},{{5,10,20,30}}),2)",
        f"INDEX(FREQUENCY({QTY},{{30,10,20,5}}),1)",
        f"INDEX(FREQUENCY({QTY},{{5,10,20,30}}),5)",
    ]
    return out


def _arrays() -> list[str]:
    """Array arguments lifted, as Sheets lifts them (SUMPRODUCT forces the array in
    LibreOffice, which otherwise takes the first element outside an array formula)."""
    out = []
    for crit in ('{"East","West"}', '{"North","South","East"}', '{">10","<5"}'):
        col = REG if crit[2].isalpha() else QTY
        out += [
            f"SUMPRODUCT(SUMIF({col},{crit},{QTY}))",
            f"SUMPRODUCT(COUNTIF({col},{crit}))",
            f"SUMPRODUCT(AVERAGEIF({col},{crit},{PRICE}))",
            f'SUMPRODUCT(SUMIFS({QTY},{col},{crit},{PRICE},">10"))',
            f"SUMPRODUCT(COUNTIFS({col},{crit},{DISC},0))",
        ]
    out += [
        f"SUMPRODUCT(LARGE({QTY},{{1,2,3}}))",
        f"SUMPRODUCT(SMALL({PRICE},{{1,2}}))",
        f"SUMPRODUCT(1/COUNTIF({REG},{REG}))",
        f"SUMPRODUCT(1/COUNTIF({PROD},{PROD}))",
        f"SUMPRODUCT(1/COUNTIF({ORD}J2:J61,{ORD}J2:J61))",
        f'SUMPRODUCT(({REG}="East")*{QTY}*{PRICE}*(1-{DISC}))',
        f"SUMPRODUCT(--({QTY}>20),{PRICE})",
        f"SUMPRODUCT(ROUND({PRICE}*{QTY},0))",
        f"SUMPRODUCT(PERCENTILE({QTY},{{0.1,0.5,0.9}}))",
        f"SUMPRODUCT(QUARTILE({QTY},{{1,3}}))",
        f"SUMPRODUCT(RANK({ORD}E2:E6,{QTY}))",
        f"SUMPRODUCT(COUNTIF({QTY},{ORD}E2:E11))",
        "0.1+0.2=0.3",
        "0.1*3=0.3",
        "1-0.9=0.1",
        "0.3-0.1=0.2",
        'IF(0.1+0.2=0.3,"same","diff")',
        "0.1+0.2<>0.3",
        "0.1+0.2>0.3",
        "1/3*3=1",
    ]
    return out


YEARFRAC_SPANS = (
    ("2024,1,1", "2024,7,1"),
    ("2023,6,15", "2025,2,28"),
    ("2024,2,29", "2025,2,28"),
    ("2023,12,31", "2024,12,31"),
    ("2024,3,31", "2024,1,30"),
)


def _text_dates() -> list[str]:
    out = []
    for x in (1234.5678, 0.000123, -98765, 6.02e23, 0, 1):
        out += [f'TEXT({x},"0.00E+00")', f'TEXT({x},"0.0E+0")', f'TEXT({x},"##0.0E+0")']
    for b in range(5):
        for a, c in YEARFRAC_SPANS:
            out.append(f"YEARFRAC(DATE({a}),DATE({c}),{b})")
    out += [f"YEARFRAC({ORD}B{r},{ORD}B{r + 1},1)" for r in range(2, 12)]
    out += [
        'TIMEVALUE("13:30")',
        'TIMEVALUE("1:30 PM")',
        'TIMEVALUE("08:15:30")',
        'TIMEVALUE("12:00 AM")',
        'TIMEVALUE("2024-03-01 18:45")',
        'TIMEVALUE("noon")',
    ]
    for w in (1, 2, 7, 11, 17, '"0000011"', '"1010100"'):
        out += [
            f"NETWORKDAYS.INTL(DATE(2024,1,1),DATE(2024,12,31),{w})",
            f"NETWORKDAYS.INTL(DATE(2024,1,1),DATE(2025,6,30),{w},Holidays!A2:A13)",
            f"WORKDAY.INTL(DATE(2024,12,20),10,{w},Holidays!A2:A13)",
            f"WORKDAY.INTL(DATE(2025,3,3),-25,{w})",
        ]
    out += [f"NETWORKDAYS.INTL({ORD}B{r},{ORD}B{r + 5},1,Holidays!A2:A13)" for r in range(2, 20)]
    out += [f"WORKDAY.INTL({ORD}B{r},{ORD}E{r},7,Holidays!A2:A13)" for r in range(2, 20)]
    out += [
        "NETWORKDAYS.INTL(DATE(2024,1,31),DATE(2024,1,1))",
        "WORKDAY.INTL(DATE(2024,1,1),0)",
    ]
    return out


def _database() -> list[str]:
    heads = "Orders!A1:J61"
    return [
        f'DSUM({heads},"Qty",{{"Region";"East"}})',
        f'DSUM({heads},5,{{"Region","Qty";"West",">10"}})',
        f'DAVERAGE({heads},"Price",{{"Product";"Widget"}})',
        f'DCOUNT({heads},"Qty",{{"Status";"paid"}})',
        f'DCOUNTA({heads},"Order",{{"Status";"overdue"}})',
        f'DMAX({heads},"Price",{{"Region";"North"}})',
        f'DMIN({heads},"Qty",{{"Region";"South"}})',
        f'DPRODUCT({heads},"Discount",{{"Discount";">0.1"}})',
        f'DSTDEV({heads},"Qty",{{"Product";"Gizmo"}})',
        f'DGET({heads},"Order",{{"Order";"SO-2024014"}})',
        f'DGET({heads},"Order",{{"Order";"none"}})',
        f'DSUM({heads},"Qty",{{"Region";"East";"West"}})',
        f'DSUM({heads},"Nope",{{"Region";"East"}})',
        "ADDRESS(3,4)",
        "ADDRESS(3,4,2)",
        "ADDRESS(3,4,3)",
        "ADDRESS(3,4,4)",
        'ADDRESS(3,28,1,TRUE,"Orders")',
        "ADDRESS(3,4,1,FALSE)",
        'ADDRESS(5,5,4,TRUE,"My Sheet")',
    ]


# Where LibreOffice departs from Excel the case is a pair or left out, and the engine
# follows Excel (Sheets does too): PERCENTRANK truncates to its significant digits
# (LibreOffice rounds); an argument out of a function's domain is #NUM! (LibreOffice
# #VALUE!: IPMT's period 0, CUMIPMT's start after end, EFFECT's negative rate, DB's
# salvage above cost, PERCENTILE.EXC out of range, COMBIN(3,5)); SYD past the life is
# #NUM! (LibreOffice 0); STANDARDIZE with deviation 0 is #NUM! (#DIV/0!); DGET of
# several matches is #NUM! (#VALUE!); a weekend of seven days is #VALUE! (0), an
# unknown weekend code #NUM!; RANK.AVG of a value not in the data #N/A; SLOPE of
# ranges of different sizes is #N/A.
_RANKS = [
    (f"PERCENTRANK({r},{x})", f"ROUNDDOWN(PERCENTRANK({r},{x},15),3)")
    for r in (QTY, f"{ORD}E2:E30", "Cash!B2:B10")
    for x in (f"{ORD}E5", "20", "7")
] + [
    (f"PERCENTRANK.EXC({r},{x},2)", f"ROUNDDOWN(PERCENTRANK.EXC({r},{x},15),2)")
    for r, x in ((QTY, "20"), (QTY, "7"), ("Cash!B2:B10", "20"), ("Cash!B2:B10", "3000"))
]

# (ours, LibreOffice 7.4's equivalent) for functions it lacks
PAIRS = [
    *_RANKS,
    ('REGEXMATCH(Orders!H2,"@acme\\.com$")', 'ISNUMBER(SEARCH("@acme.com",Orders!H2))'),
    ('REGEXMATCH(Orders!I3,"^[A-Z]{3}-\\d+-XL$")', 'RIGHT(Orders!I3,3)="-XL"'),
    ('REGEXEXTRACT(Orders!I2,"\\d+")', "MID(Orders!I2,5,3)"),
    ('REGEXEXTRACT(Orders!H4,"@(.+)$")', 'MID(Orders!H4,FIND("@",Orders!H4)+1,99)'),
    (
        'REGEXREPLACE(Orders!I5,"(\\w+)-(\\d+)-(\\w+)","$3/$2/$1")',
        'RIGHT(Orders!I5,LEN(Orders!I5)-8)&"/"&MID(Orders!I5,5,3)&"/"&LEFT(Orders!I5,3)',
    ),
    ('REGEXREPLACE("2024-03-05","(\\d+)-(\\d+)-(\\d+)","$2/$3/$1")', '"03/05/2024"'),
    ('REGEXREPLACE("a1b22c333","\\d+","#")', '"a#b#c#"'),
    ('JOIN(", ",{"a","b","c"})', '"a, b, c"'),
    ('JOIN("-",Orders!C2:C4)', 'Orders!C2&"-"&Orders!C3&"-"&Orders!C4'),
    (f"SUM(SORTN({QTY},3,0,1,FALSE))", f"LARGE({QTY},1)+LARGE({QTY},2)+LARGE({QTY},3)"),
    (f"INDEX(SORTN({PRICE},1,0,1,TRUE),1)", f"MIN({PRICE})"),
    ("ISBETWEEN(5,1,10)", "AND(5>=1,5<=10)"),
    ("ISBETWEEN(10,1,10,TRUE,FALSE)", "FALSE"),
    ("ADD(2,3)*MINUS(10,4)", "30"),
    ("DIVIDE(1,4)+MULTIPLY(2,2.5)", "5.25"),
    ("EQ(0.1+0.2,0.3)", "TRUE"),
    ("GT(2,1)+LTE(1,1)", "2"),
    ("UNARY_PERCENT(42)", "0.42"),
    ("EPOCHTODATE(1700000000)", "1700000000/86400+25569"),
    (f"SUM(FLATTEN({ORD}E2:F4))", f"SUM({ORD}E2:F4)"),
    (f"SUM(CHOOSECOLS({ORD}E2:G10,1,-1))", f"SUM({ORD}E2:E10)+SUM({ORD}G2:G10)"),
    (f"SUM(CHOOSEROWS({ORD}E2:E20,2,4))", f"{ORD}E3+{ORD}E5"),
    (f"SUM(TAKE({QTY},5))", f"SUM({ORD}E2:E6)"),
    (f"SUM(DROP({QTY},55))", f"SUM({ORD}E57:E61)"),
    (f"SUM(TAKE({QTY},-3))", f"SUM({ORD}E59:E61)"),
    (f"ROWS(VSTACK({ORD}E2:E5,{ORD}E6:E9))", "8"),
    (f"SUM(HSTACK({ORD}E2:E5,{ORD}F2:F5))", f"SUM({ORD}E2:F5)"),
    (f"SUM(TOCOL({ORD}E2:F6))", f"SUM({ORD}E2:F6)"),
    (f"COLUMNS(TOROW({ORD}E2:F6))", "10"),
    (f"ROWS(WRAPROWS({QTY},7))", "9"),
    (f"SUMPRODUCT(MMULT({ORD}E2:F3,{{1;2}}))", f"{ORD}E2+2*{ORD}F2+{ORD}E3+2*{ORD}F3"),
]


def build(seed: int = 30) -> Corpus:
    rng = random.Random(seed)
    formulas = [*_loans(), *_stats(), *_arrays(), *_text_dates(), *_database()]
    return Corpus(_sheets(rng), formulas, list(PAIRS))


if __name__ == "__main__":
    c = build()
    write_xlsx(c, sys.argv[1] if len(sys.argv) > 1 else "corpus_business.xlsx")
    print(f"{len(c.formulas)} formulas, {len(c.pairs)} pairs, digest {c.digest()}")
