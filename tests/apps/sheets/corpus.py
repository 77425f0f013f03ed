"""The formula corpus checked against LibreOffice: seeded data and 300+ formulas.

`build()` gives the data sheets and the formulas (deterministic). `write_xlsx(path)`
writes them as one workbook with no cached values; LibreOffice (headless) recalculates
it once and saves a copy, whose values `tests/apps/sheets/test_libreoffice.py`
compares with ours. Functions LibreOffice 7.4 lacks (XLOOKUP, UNIQUE, FILTER ...) are
checked through an equivalent formula LibreOffice does know (`PAIRS`): ours must give
the value LibreOffice gives for the equivalent.

    python -m tests.apps.sheets.corpus out.xlsx    # write the corpus workbook
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import random
import sys
from dataclasses import dataclass

from tests.apps.sheets import corpus_refs

# Where LibreOffice departs from Excel, the corpus leaves the formula out and the engine
# follows Excel (tests/apps/sheets/test_functions.py holds Excel's documented results):
# logicals in ranges (LibreOffice counts TRUE as 1), "a"&TRUE ("a1"), POWER(0,0) (1),
# SQRT(-1) and INDEX/VLOOKUP past the range (#VALUE!), WEEKNUM(d,2) (ISO weeks),
# WEEKNUM in a year's last days, DATEDIF "MD", approximate look-ups on unsorted data
# (undefined in both).

REGIONS = ["East", "West", "North", "South"]
NAMES = ["alice SMITH", "  bob  jones ", "Carol de la Cruz", "dave o'neil", "Eve", "frank-li"]
N = 40  # data rows (2..41)


@dataclass(frozen=True)
class Corpus:
    data: dict[str, list[list[object]]]  # sheet -> rows (row 1 first)
    formulas: list[str]  # each goes in Formulas!A<i+1>
    pairs: list[tuple[str, str]]  # (ours, LibreOffice's equivalent)

    def digest(self) -> str:
        blob = json.dumps([self.data, self.formulas, self.pairs], default=str, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _data(rng: random.Random) -> dict[str, list[list[object]]]:
    start = dt.date(2024, 1, 1)
    rows: list[list[object]] = [
        ["ID", "Region", "Amount", "Units", "Date", "Flag", "Name", "Mixed", "Price"]
    ]
    for i in range(N):
        # no logicals in aggregated ranges: Excel skips them, LibreOffice counts them as 1/0
        mixed = rng.choice([0, "", "text", 3.5, -2, "12"])
        rows.append(
            [
                f"K{100 + i}",
                rng.choice(REGIONS),
                round(rng.uniform(-50, 1500), 2),
                rng.randint(1, 30),
                (start + dt.timedelta(days=rng.randint(0, 500))).toordinal()
                - dt.date(1899, 12, 30).toordinal(),
                rng.random() < 0.5,
                rng.choice(NAMES),
                mixed,
                rng.choice([9.99, 19.5, 100, 2.25, 0.5]),
            ]
        )
    table: list[list[object]] = [["Key", "Rate", "Label"]]
    for k in range(0, 1100, 100):
        table.append([k, round(0.01 * (k // 100 + 1), 2), f"band{k // 100}"])
    return {"Data": rows, "Table": table}


def _pick(rng: random.Random, items: list[str]) -> str:
    return rng.choice(items)


def _aggregates(rng: random.Random) -> list[str]:
    out = []
    for fn in [
        "SUM",
        "AVERAGE",
        "COUNT",
        "COUNTA",
        "MIN",
        "MAX",
        "MEDIAN",
        "STDEV",
        "STDEV.P",
        "VAR",
        "VAR.P",
        "SUMSQ",
        "AVERAGEA",
        "MINA",
        "MAXA",
        "COUNTBLANK",
    ]:
        for col in ("C", "D", "H"):
            a, b = sorted(rng.sample(range(2, N + 2), 2))
            out.append(f"{fn}(Data!{col}{a}:{col}{b})")
    out += [f"LARGE(Data!C2:C41,{k})" for k in (1, 3, 7)] + [
        f"SMALL(Data!C2:C41,{k})" for k in (1, 2, 9)
    ]
    out += [f"RANK(Data!C{r},Data!C2:C41)" for r in (2, 9, 30)] + ["RANK(Data!C5,Data!C2:C41,1)"]
    out += [f"PERCENTILE(Data!C2:C41,{p})" for p in (0, 0.25, 0.5, 0.9, 1)]
    out += [f"QUARTILE(Data!D2:D41,{q})" for q in (1, 3)]
    out += [
        "PRODUCT(Data!D2:D6)",
        "SUM(Data!C:C)",
        "COUNT(Data!A:E)",
        "COUNTA(Data!A:A)",
        "MODE(Data!D2:D41)",
        "GEOMEAN(Data!D2:D20)",
        "CORREL(Data!C2:C41,Data!D2:D41)",
        "AVERAGE(Data!H2:H41)",
        "SUM(Data!C2:C41,Data!D2:D41,5)",
    ]
    return out


def _conditional(rng: random.Random) -> list[str]:
    out = []
    for region in REGIONS:
        out += [
            f'SUMIF(Data!B2:B41,"{region}",Data!C2:C41)',
            f'COUNTIF(Data!B:B,"{region}")',
            f'AVERAGEIF(Data!B2:B41,"{region}",Data!D2:D41)',
            f'SUMIFS(Data!C2:C41,Data!B2:B41,"{region}",Data!D2:D41,">10")',
            f'COUNTIFS(Data!B2:B41,"{region}",Data!F2:F41,TRUE)',
            f'MAXIFS(Data!C2:C41,Data!B2:B41,"{region}")',
            f'MINIFS(Data!D2:D41,Data!B2:B41,"<>{region}")',
            f'AVERAGEIFS(Data!C2:C41,Data!B2:B41,"{region}",Data!C2:C41,">0")',
        ]
    for op in (">", ">=", "<", "<=", "<>", "="):
        x = rng.choice([10, 500, 750.5, -3])
        out.append(f'COUNTIF(Data!C2:C41,"{op}{x}")')
        out.append(f'SUMIF(Data!D2:D41,"{op}{rng.randint(1, 30)}")')
    out += [
        'COUNTIF(Data!G2:G41,"*o*")',
        'COUNTIF(Data!A2:A41,"K1?5")',
        'COUNTIF(Data!H2:H41,"")',
        'COUNTIF(Data!H2:H41,"<>")',
        "COUNTIF(Data!H2:H41,0)",
        'SUMIF(Data!B2:B41,"e*",Data!C2:C41)',
        "COUNTIF(Data!F2:F41,TRUE)",
        'COUNTIF(Data!B2:B41,"EAST")',
        'SUMIFS(Data!C2:C41,Data!E2:E41,">="&DATE(2024,6,1),Data!E2:E41,"<"&DATE(2025,1,1))',
        'COUNTIFS(Data!C2:C41,">100",Data!C2:C41,"<900")',
        'SUMPRODUCT((Data!B2:B41="West")*Data!C2:C41)',
        "SUMPRODUCT(Data!C2:C10,Data!D2:D10)",
        "SUMPRODUCT((Data!D2:D41>15)*(Data!F2:F41=TRUE))",
    ]
    return out


def _logic(rng: random.Random) -> list[str]:
    out = []
    for r in rng.sample(range(2, N + 2), 8):
        out += [
            f'IF(Data!C{r}>500,"high","low")',
            f"IF(AND(Data!D{r}>5,Data!F{r}),Data!D{r}*2,-1)",
            f'IF(OR(Data!B{r}="East",Data!B{r}="West"),1,0)',
            f"NOT(Data!F{r})",
            f'IFS(Data!C{r}<0,"neg",Data!C{r}<500,"small",TRUE,"big")',
            f'SWITCH(Data!B{r},"East",1,"West",2,0)',
            f'IFERROR(1/Data!H{r},"bad")',
            f'CHOOSE(MOD(Data!D{r},3)+1,"a","b","c")',
            f"XOR(Data!F{r},Data!D{r}>10)",
        ]
    out += [
        "IF(TRUE,,1)",
        "IF(FALSE,1)",
        'IFNA(NA(),"none")',
        "ISBLANK(Data!Z1)",
        "ISNUMBER(Data!C2)",
        "ISTEXT(Data!B2)",
        "ISERROR(1/0)",
        "ISNA(NA())",
        "ISERR(NA())",
        "ISLOGICAL(Data!F2)",
        "ISEVEN(7)",
        "ISODD(7)",
        "N(TRUE)",
        'T("x")',
        "AND(Data!F2:F41)",
        "OR(Data!F2:F41)",
    ]
    return out


def _lookup(rng: random.Random) -> list[str]:
    out = []
    for r in rng.sample(range(2, N + 2), 6):
        out += [
            f"VLOOKUP(Data!A{r},Data!A2:I41,3,FALSE)",
            f"INDEX(Data!G2:G41,MATCH(Data!A{r},Data!A2:A41,0))",
            f"VLOOKUP(Data!C{r},Table!A2:C12,2)",
            f"VLOOKUP(Data!C{r},Table!A2:C12,3,TRUE)",
            f"MATCH(Data!C{r},Table!A2:A12,1)",
            f"LOOKUP(Data!D{r}*40,Table!A2:A12,Table!C2:C12)",
        ]
    out += [
        'VLOOKUP("K999",Data!A2:C41,2,FALSE)',
        'HLOOKUP("Amount",Data!A1:I41,5,FALSE)',
        'HLOOKUP("Units",Data!A1:I41,10,FALSE)',
        'MATCH("west",Data!B2:B41,0)',
        'MATCH("K1*",Data!A2:A41,0)',
        "INDEX(Data!A1:I41,7,3)",
        "INDEX(Data!C2:C41,3)",
        "SUM(INDEX(Data!C2:D41,0,2))",
        "ROW(Data!C7)",
        "COLUMN(Data!F3)",
        "ROWS(Data!A2:C41)",
        "COLUMNS(Data!A2:C41)",
        "MATCH(-1,Table!A2:A12,1)",
        "MATCH(5000,Table!A2:A12,-1)",
    ]
    return out


def _math(rng: random.Random) -> list[str]:
    out = []
    xs = [2.5, -2.5, 1.005, 123.456, -0.5, 1234.5678, 0.125, 1e-3, 15, -7.75]
    for x in xs:
        d = rng.choice([0, 1, 2, -1])
        out += [
            f"ROUND({x},{d})",
            f"ROUNDUP({x},{d})",
            f"ROUNDDOWN({x},{d})",
            f"INT({x})",
            f"TRUNC({x},1)",
            f"MOD({x},3)",
            f"MOD({x},-3)",
            f"ABS({x})",
            f"SIGN({x})",
            f"CEILING({abs(x)},0.5)",
            f"FLOOR({abs(x)},0.25)",
            f"MROUND({abs(x)},0.2)",
            f"EVEN({x})",
            f"ODD({x})",
        ]
    out += [
        "QUOTIENT(17,5)",
        "QUOTIENT(-17,5)",
        "POWER(2,10)",
        "SQRT(2)",
        "EXP(1)",
        "LN(10)",
        "LOG(8,2)",
        "LOG(100)",
        "LOG10(0.001)",
        "PI()*2",
        "GCD(24,36,60)",
        "LCM(4,6,10)",
        "FACT(6)",
        "CEILING.MATH(-4.5)",
        "FLOOR.MATH(-4.5)",
        "CEILING.MATH(4.1,2)",
        "FLOOR.MATH(7.9,3)",
        "DEGREES(PI())",
        "RADIANS(180)",
        "SIN(PI()/6)",
        "COS(0)",
        "TAN(PI()/4)",
        "-2^2",
        "2^3^2",
        "1+2*3-4/2",
        "(1+2)*3",
        "10%",
        "50%*200",
        "-(3-5)",
        "2^-1",
        '"a"&1&"b"',
        '"3"+2',
        "TRUE+TRUE",
        '"a"<"B"',
        '"abc"="ABC"',
        '1<"1"',
        "FALSE<TRUE",
        "1=1.0",
        "1/0",
        '"x"*2',
        "SUM(Data!C2:C41)/COUNT(Data!C2:C41)",
        "0.1+0.2",
        "1E+3*2",
        '7-"2"',
        "Data!C2+Data!C3*Data!D4",
        "-Data!C5",
        "Data!F2*10",
        "Data!Z99+1",
        "PMT(0.05/12,360,250000)",
        "FV(0.04,10,-1000)",
        "PV(0.06,20,-500)",
        "NPV(0.1,Data!D2:D8)",
        "NPER(0.01,-100,1000)",
    ]
    return out


def _text(rng: random.Random) -> list[str]:
    out = []
    for r in rng.sample(range(2, N + 2), 6):
        n = rng.randint(1, 5)
        out += [
            f"LEFT(Data!G{r},{n})",
            f"RIGHT(Data!G{r},{n})",
            f"MID(Data!G{r},2,{n})",
            f"LEN(Data!G{r})",
            f"UPPER(Data!G{r})",
            f"LOWER(Data!G{r})",
            f"PROPER(Data!G{r})",
            f"TRIM(Data!G{r})",
            f'SUBSTITUTE(Data!G{r}," ","_")',
            f'Data!A{r}&"-"&Data!B{r}',
            f'IFERROR(FIND("o",Data!G{r}),0)',
            f'IFERROR(SEARCH("O",Data!G{r}),0)',
        ]
    out += [
        'REPLACE("abcdef",2,3,"XY")',
        'SUBSTITUTE("a-b-c","-","+",2)',
        'CONCATENATE("a",1,"c")',
        "CONCAT(Data!B2:B4)",
        'TEXTJOIN(", ",TRUE,Data!B2:B5)',
        'TEXTJOIN("|",FALSE,"a","","b")',
        'REPT("ab",3)',
        'EXACT("a","A")',
        'VALUE("1,234.5")',
        'VALUE("12%")',
        'VALUE("abc")',
        'TEXT(1234.567,"#,##0.00")',
        'TEXT(0.256,"0.0%")',
        'TEXT(45000,"yyyy-mm-dd")',
        'TEXT(45000,"mmm d, yyyy")',
        'TEXT(3.14159,"0.000")',
        'TEXT(-1234,"#,##0")',
        'TEXT(42,"000")',
        "FIXED(1234.567,1)",
        "FIXED(1234.567,0,TRUE)",
        "CHAR(65)",
        'CODE("a")',
        'LEN("")',
        'FIND("z","abc")',
        'MID("abc",5,2)',
        'LEFT("abc",0)',
        'UPPER("true")',
        'TRIM("  a   b  ")',
        'PROPER("hello WORLD-wide")',
        'SEARCH("b?d","abcd")',
        "LEFT(123456,2)+1",
    ]
    return out


def _dates(rng: random.Random) -> list[str]:
    out = []
    for r in rng.sample(range(2, N + 2), 6):
        m = rng.randint(-14, 14)
        out += [
            f"YEAR(Data!E{r})",
            f"MONTH(Data!E{r})",
            f"DAY(Data!E{r})",
            f"WEEKDAY(Data!E{r})",
            f"WEEKDAY(Data!E{r},2)",
            f"WEEKDAY(Data!E{r},3)",
            f"WEEKNUM(Data!E{r})",
            f"EDATE(Data!E{r},{m})",
            f"EOMONTH(Data!E{r},{m})",
            f"NETWORKDAYS(Data!E{r},Data!E{r}+{rng.randint(0, 60)})",
            f"WORKDAY(Data!E{r},{rng.randint(1, 30)})",
            f'DATEDIF(DATE(2023,1,15),Data!E{r},"M")',
            f"DAYS(Data!E{r},DATE(2024,1,1))",
            f"ISOWEEKNUM(Data!E{r})",
        ]
    out += [
        "DATE(2024,2,30)",
        "DATE(2024,14,1)",
        "DATE(2023,1,0)",
        "DATE(99,1,1)",
        "EDATE(DATE(2024,1,31),1)",
        "EOMONTH(DATE(2024,2,10),0)",
        'DATEDIF(DATE(2020,2,29),DATE(2024,2,28),"Y")',
        'DATEDIF(DATE(2022,5,20),DATE(2024,3,1),"YM")',
        'DATEDIF(DATE(2022,5,20),DATE(2024,3,1),"D")',
        'DATEVALUE("2024-03-01")',
        "TIME(13,30,0)",
        "HOUR(0.75)",
        "MINUTE(TIME(1,45,0))",
        "SECOND(TIME(0,0,59))",
        "YEARFRAC(DATE(2024,1,1),DATE(2024,7,1))",
        "DAYS360(DATE(2024,1,31),DATE(2024,3,31))",
        "NETWORKDAYS(DATE(2024,1,1),DATE(2024,1,31),DATE(2024,1,15))",
        "WORKDAY(DATE(2024,12,20),5)",
        "WEEKNUM(DATE(2024,6,30),1)",
    ]
    return out


PAIRS = [
    ('XLOOKUP("K110",Data!A2:A41,Data!C2:C41)', 'INDEX(Data!C2:C41,MATCH("K110",Data!A2:A41,0))'),
    (
        'XLOOKUP("nope",Data!A2:A41,Data!C2:C41,"missing")',
        'IFERROR(VLOOKUP("nope",Data!A2:C41,3,FALSE),"missing")',
    ),
    ("XLOOKUP(777,Table!A2:A12,Table!C2:C12,,-1)", "VLOOKUP(777,Table!A2:C12,3,TRUE)"),
    (
        'XLOOKUP("West",Data!B2:B41,Data!A2:A41,,0,-1)',
        'LOOKUP(2,1/(Data!B2:B41="West"),Data!A2:A41)',
    ),
    ('XMATCH("K120",Data!A2:A41)', 'MATCH("K120",Data!A2:A41,0)'),
    ("COUNTA(UNIQUE(Data!B2:B41))", "SUMPRODUCT(1/COUNTIF(Data!B2:B41,Data!B2:B41))"),
    ("ROWS(UNIQUE(Data!G2:G41))", "SUMPRODUCT(1/COUNTIF(Data!G2:G41,Data!G2:G41))"),
    ('SUM(FILTER(Data!C2:C41,Data!B2:B41="East"))', 'SUMIF(Data!B2:B41,"East",Data!C2:C41)'),
    ("COUNT(FILTER(Data!D2:D41,Data!D2:D41>10))", 'COUNTIF(Data!D2:D41,">10")'),
    ("INDEX(SORT(Data!C2:C41),1)", "SMALL(Data!C2:C41,1)"),
    ("INDEX(SORT(Data!C2:C41,1,-1),3)", "LARGE(Data!C2:C41,3)"),
    ("SUM(SEQUENCE(10))", "SUMPRODUCT(ROW(Data!A1:A10))"),
    (
        'TEXTBEFORE("alpha-beta-gamma","-")',
        'LEFT("alpha-beta-gamma",FIND("-","alpha-beta-gamma")-1)',
    ),
    ('TEXTAFTER("alpha-beta-gamma","-",2)', '"gamma"'),
    (
        "INDEX(SORTBY(Data!A2:A41,Data!C2:C41,-1),1)",
        "INDEX(Data!A2:A41,MATCH(MAX(Data!C2:C41),Data!C2:C41,0))",
    ),
    ("SUM(TRANSPOSE(Data!D2:D41))", "SUM(Data!D2:D41)"),
]


def build(seed: int = 2026) -> Corpus:
    rng = random.Random(seed)
    data = {**_data(rng), **corpus_refs.sheets()}
    formulas = [
        *_aggregates(rng),
        *_conditional(rng),
        *_logic(rng),
        *_lookup(rng),
        *_math(rng),
        *_text(rng),
        *_dates(rng),
        *corpus_refs.formulas(),
    ]
    return Corpus(data, formulas, list(PAIRS))


def write_xlsx(corpus: Corpus, path: str) -> None:
    """The corpus as a workbook: data sheets, then Formulas!A (ours) and B (equivalents)."""
    from openpyxl import Workbook

    from officegym.apps.sheets.xlfn import to_file

    wb = Workbook()
    wb.remove(wb.active)
    for name, rows in corpus.data.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    ws = wb.create_sheet("Formulas")
    for i, f in enumerate(corpus.formulas, start=1):
        ws.cell(row=i, column=1, value="=" + to_file(f))
    for i, (_, theirs) in enumerate(corpus.pairs, start=1):
        ws.cell(row=i, column=2, value="=" + to_file(theirs))
    wb.save(path)


if __name__ == "__main__":
    c = build()
    write_xlsx(c, sys.argv[1] if len(sys.argv) > 1 else "corpus.xlsx")
    print(f"{len(c.formulas)} formulas, {len(c.pairs)} pairs, digest {c.digest()}")
