/**
 * A small Python project made on the spot — not one of the bundled samples and
 * not shaped for bugbench: a `ledger` package with a tests/ folder and a short
 * history that includes two fixes.
 */
import { makeGitRepo } from './git-repo.js';

const MONEY_V1 = `"""Amounts of money as integer cents."""


def parse_amount(text):
    """Parse "12.34" or "-5" into cents."""
    text = text.strip().replace(",", "")
    negative = text.startswith("-")
    if negative:
        text = text[1:]
    whole, _, frac = text.partition(".")
    frac = (frac + "00")[:2]
    cents = int(whole or "0") * 100 + int(frac)
    return -cents if negative else cents


def format_amount(cents):
    """Format cents as "1,234.56"."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    whole, frac = divmod(cents, 100)
    return f"{sign}{whole:,}.{frac:02d}"


def split_evenly(cents, parts):
    """Split an amount into parts that differ by at most one cent."""
    if parts <= 0:
        raise ValueError("parts must be positive")
    base, extra = divmod(cents, parts)
    return [base + 1 if i < extra else base for i in range(parts)]
`;

const MONEY_V2 = MONEY_V1.replace(
  `    whole, _, frac = text.partition(".")
    frac = (frac + "00")[:2]
    cents = int(whole or "0") * 100 + int(frac)`,
  `    whole, _, frac = text.partition(".")
    rounding = 1 if len(frac) > 2 and frac[2] >= "5" else 0
    frac = (frac + "00")[:2]
    cents = int(whole or "0") * 100 + int(frac) + rounding`,
);

const ACCOUNTS_V1 = `"""Accounts and a ledger that moves money between them."""
from ledger.money import format_amount


class InsufficientFunds(Exception):
    """Raised when a withdrawal would make a balance negative."""


class Account:
    def __init__(self, name, balance=0):
        self.name = name
        self.balance = balance

    def deposit(self, cents):
        if cents <= 0:
            raise ValueError("deposit must be positive")
        self.balance += cents

    def withdraw(self, cents):
        if cents <= 0:
            raise ValueError("withdrawal must be positive")
        if cents > self.balance:
            raise InsufficientFunds(f"{self.name} has only {format_amount(self.balance)}")
        self.balance -= cents


class Ledger:
    def __init__(self):
        self.accounts = {}
        self.history = []

    def open(self, name, balance=0):
        if name in self.accounts:
            raise KeyError(f"account {name} exists")
        account = Account(name, balance)
        self.accounts[name] = account
        return account

    def transfer(self, source, target, cents):
        self.accounts[source].withdraw(cents)
        self.accounts[target].deposit(cents)
        self.history.append((source, target, cents))

    def total(self):
        return sum(a.balance for a in self.accounts.values())
`;

const ACCOUNTS_V2 = ACCOUNTS_V1.replace(
  `    def transfer(self, source, target, cents):
        self.accounts[source].withdraw(cents)`,
  `    def transfer(self, source, target, cents):
        if source == target:
            raise ValueError("cannot transfer to the same account")
        self.accounts[source].withdraw(cents)`,
);

const REPORT = `"""Summaries of a ledger."""
from ledger.money import format_amount


def summarize(ledger):
    """Balances by account name, formatted."""
    return {name: format_amount(a.balance) for name, a in sorted(ledger.accounts.items())}


def top_accounts(ledger, n=3):
    """The n names with the largest balances, largest first."""
    ranked = sorted(ledger.accounts.values(), key=lambda a: (-a.balance, a.name))
    return [a.name for a in ranked[:n]]


def busiest(ledger):
    """The account that took part in most transfers, or None."""
    counts = {}
    for source, target, _ in ledger.history:
        counts[source] = counts.get(source, 0) + 1
        counts[target] = counts.get(target, 0) + 1
    if not counts:
        return None
    return max(sorted(counts), key=lambda name: counts[name])
`;

const TEST_MONEY = `from ledger.money import format_amount, parse_amount, split_evenly
import pytest


def test_parse_whole():
    assert parse_amount("12") == 1200


def test_parse_cents():
    assert parse_amount("12.34") == 1234


def test_parse_negative_and_commas():
    assert parse_amount("-1,000.5") == -100050


def test_format_thousands():
    assert format_amount(123456789) == "1,234,567.89"


def test_format_negative():
    assert format_amount(-5) == "-0.05"


def test_split_evenly():
    assert split_evenly(100, 3) == [34, 33, 33]


def test_split_rejects_zero_parts():
    with pytest.raises(ValueError):
        split_evenly(100, 0)
`;

const TEST_MONEY_FIX = `${TEST_MONEY}

def test_parse_rounds_half_cents_up():
    assert parse_amount("0.125") == 13
    assert parse_amount("0.124") == 12
`;

const TEST_ACCOUNTS = `import pytest
from ledger.accounts import InsufficientFunds, Ledger


def make():
    ledger = Ledger()
    ledger.open("alice", 1000)
    ledger.open("bob", 500)
    return ledger


def test_open_rejects_duplicates():
    ledger = make()
    with pytest.raises(KeyError):
        ledger.open("alice")


def test_transfer_moves_money():
    ledger = make()
    ledger.transfer("alice", "bob", 300)
    assert ledger.accounts["alice"].balance == 700
    assert ledger.accounts["bob"].balance == 800


def test_transfer_keeps_total():
    ledger = make()
    ledger.transfer("bob", "alice", 500)
    assert ledger.total() == 1500


def test_overdraft_refused():
    ledger = make()
    with pytest.raises(InsufficientFunds):
        ledger.transfer("bob", "alice", 501)


def test_deposit_must_be_positive():
    ledger = make()
    with pytest.raises(ValueError):
        ledger.accounts["bob"].deposit(0)


def test_history_records_transfers():
    ledger = make()
    ledger.transfer("alice", "bob", 1)
    assert ledger.history == [("alice", "bob", 1)]
`;

const TEST_ACCOUNTS_FIX = `${TEST_ACCOUNTS}

def test_transfer_to_same_account_refused():
    ledger = make()
    with pytest.raises(ValueError):
        ledger.transfer("alice", "alice", 10)
`;

const TEST_REPORT = `from ledger.accounts import Ledger
from ledger.report import busiest, summarize, top_accounts


def make():
    ledger = Ledger()
    for name, cents in [("ann", 300), ("ben", 900), ("cat", 100), ("dan", 900)]:
        ledger.open(name, cents)
    return ledger


def test_summarize_formats_balances():
    assert summarize(make())["ben"] == "9.00"


def test_top_accounts_breaks_ties_by_name():
    assert top_accounts(make(), 2) == ["ben", "dan"]


def test_busiest_none_without_history():
    assert busiest(make()) is None


def test_busiest_counts_both_sides():
    ledger = make()
    ledger.transfer("ben", "cat", 1)
    ledger.transfer("dan", "cat", 1)
    assert busiest(ledger) == "cat"
`;

export function makePlainProject(): Promise<string> {
  return makeGitRepo('ledger-project', [
    { message: 'Add money helpers', files: { 'ledger/__init__.py': '"""A tiny double-entry ledger."""\n', 'ledger/money.py': MONEY_V1, 'tests/test_money.py': TEST_MONEY, 'README.md': '# ledger\n' } },
    { message: 'Add accounts and transfers', files: { 'ledger/accounts.py': ACCOUNTS_V1, 'tests/test_accounts.py': TEST_ACCOUNTS } },
    { message: 'Add reports', files: { 'ledger/report.py': REPORT, 'tests/test_report.py': TEST_REPORT } },
    { message: 'Fix rounding of half cents when parsing amounts', files: { 'ledger/money.py': MONEY_V2, 'tests/test_money.py': TEST_MONEY_FIX } },
    { message: 'Fix transfers from an account to itself', files: { 'ledger/accounts.py': ACCOUNTS_V2, 'tests/test_accounts.py': TEST_ACCOUNTS_FIX } },
  ]);
}
