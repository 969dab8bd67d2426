/**
 * A small Ruby library made on the spot: `ledger`, amounts in cents with a
 * running balance, tested with RSpec as gems usually are (.rspec requiring
 * spec/spec_helper.rb, which holds a helper the specs use; specs under spec/),
 * with a Gemfile and a Rakefile whose default task runs the specs; no gems
 * beyond what Debian ships. A history of three commits of which one is a fix
 * that came with its spec. `makeMinitestProject` is the same library tested
 * with minitest instead (test/test_helper.rb, test/*_test.rb).
 */
import { makeGitRepo } from './git-repo.js';

const LEDGER_V1 = `# frozen_string_literal: true

# Amounts in cents, and a running balance over entries.
class Ledger
  Entry = Struct.new(:label, :cents)

  attr_reader :entries

  def initialize
    @entries = []
  end

  # Adds an entry; amounts are given as strings like "12.30" or "-4".
  def add(label, amount)
    @entries << Entry.new(label, Ledger.cents(amount))
    self
  end

  def balance
    @entries.sum(&:cents)
  end

  def largest_expense
    @entries.map(&:cents).select(&:negative?).min
  end

  def self.cents(amount)
    whole, frac = amount.to_s.strip.split('.', 2)
    sign = whole.start_with?('-') ? -1 : 1
    frac = (frac || '').ljust(2, '0')[0, 2]
    sign * (whole.delete('-').to_i * 100 + frac.to_i)
  end

  def self.format(cents)
    sign = cents.negative? ? '-' : ''
    format_abs = cents.abs
    "#{sign}#{format_abs / 100}.#{(format_abs % 100).to_s.rjust(2, '0')}"
  end
end
`;

const LEDGER_V2 = LEDGER_V1.replace("whole.delete('-').to_i", "whole.delete('-,').to_i");

const SPEC_HELPER = `# frozen_string_literal: true

$LOAD_PATH.unshift File.expand_path('../lib', __dir__)
require 'ledger'

module LedgerHelpers
  # A ledger with the entries given as label => amount.
  def ledger_of(entries)
    entries.each_with_object(Ledger.new) { |(label, amount), ledger| ledger.add(label, amount) }
  end
end

RSpec.configure do |config|
  config.include LedgerHelpers
  config.order = :defined
end
`;

const LEDGER_SPEC_V1 = `# frozen_string_literal: true

RSpec.describe Ledger do
  describe '.cents' do
    it 'reads whole amounts' do
      expect(Ledger.cents('12')).to eq(1200)
    end

    it 'reads amounts with cents' do
      expect(Ledger.cents('12.30')).to eq(1230)
    end

    it 'reads negative amounts' do
      expect(Ledger.cents('-4.05')).to eq(-405)
    end
  end

  describe '.format' do
    it 'pads cents to two digits' do
      expect(Ledger.format(705)).to eq('7.05')
    end

    it 'keeps the sign of small negatives' do
      expect(Ledger.format(-5)).to eq('-0.05')
    end
  end

  describe '#balance' do
    it 'sums every entry' do
      expect(ledger_of('rent' => '-500', 'pay' => '1200.50').balance).to eq(70_050)
    end

    it 'is zero when empty' do
      expect(Ledger.new.balance).to eq(0)
    end
  end

  describe '#largest_expense' do
    it 'is the most negative entry' do
      expect(ledger_of('a' => '-3', 'b' => '-12.5', 'c' => '40').largest_expense).to eq(-1250)
    end
  end
end
`;

const LEDGER_SPEC_V2 = LEDGER_SPEC_V1.replace(
  "    it 'reads negative amounts' do\n",
  "    it 'reads thousands separators' do\n      expect(Ledger.cents('1,200.50')).to eq(120_050)\n    end\n\n    it 'reads negative amounts' do\n",
);

const GEMFILE = `# frozen_string_literal: true

source 'https://rubygems.org'

gem 'rake'
gem 'rspec', '~> 3.12'
`;

const RAKEFILE = `# frozen_string_literal: true

require 'rspec/core/rake_task'

RSpec::Core::RakeTask.new(:spec) do |t|
  t.rspec_opts = '--format documentation'
end

task default: :spec
`;

/** The examples RSpec runs at the last commit, by their full descriptions. */
export const RUBY_TESTS = [
  'Ledger.cents reads whole amounts',
  'Ledger.cents reads amounts with cents',
  'Ledger.cents reads thousands separators',
  'Ledger.cents reads negative amounts',
  'Ledger.format pads cents to two digits',
  'Ledger.format keeps the sign of small negatives',
  'Ledger#balance sums every entry',
  'Ledger#balance is zero when empty',
  'Ledger#largest_expense is the most negative entry',
];

export function makeRubyProject(name = 'ledger'): Promise<string> {
  return makeGitRepo(name, [
    {
      message: 'Add a ledger of amounts in cents, with specs',
      files: { Gemfile: GEMFILE, Rakefile: RAKEFILE, '.rspec': '--require spec_helper\n', 'lib/ledger.rb': LEDGER_V1, 'spec/spec_helper.rb': SPEC_HELPER, 'spec/ledger_spec.rb': LEDGER_SPEC_V1 },
    },
    { message: 'Say what the ledger is for', files: { 'README.md': '# ledger\n\nAmounts in cents and a running balance.\n' } },
    { message: 'Read amounts with thousands separators', files: { 'lib/ledger.rb': LEDGER_V2, 'spec/ledger_spec.rb': LEDGER_SPEC_V2 } },
  ]);
}

const TEST_HELPER = `# frozen_string_literal: true

$LOAD_PATH.unshift File.expand_path('../lib', __dir__)
require 'ledger'
require 'minitest/autorun'
`;

const LEDGER_TEST = `# frozen_string_literal: true

require_relative 'test_helper'

class LedgerCentsTest < Minitest::Test
  def test_whole_amounts
    assert_equal 1200, Ledger.cents('12')
  end

  def test_amounts_with_cents
    assert_equal 1230, Ledger.cents('12.30')
  end

  def test_negative_amounts
    assert_equal(-405, Ledger.cents('-4.05'))
  end
end

class LedgerBalanceTest < Minitest::Test
  def test_sums_every_entry
    assert_equal 70_050, Ledger.new.add('rent', '-500').add('pay', '1200.50').balance
  end

  def test_zero_when_empty
    assert_equal 0, Ledger.new.balance
  end
end
`;

/** The tests minitest runs, as Class#method. */
export const MINITEST_TESTS = [
  'LedgerCentsTest#test_whole_amounts',
  'LedgerCentsTest#test_amounts_with_cents',
  'LedgerCentsTest#test_negative_amounts',
  'LedgerBalanceTest#test_sums_every_entry',
  'LedgerBalanceTest#test_zero_when_empty',
];

/** The ledger tested with minitest: test/test_helper.rb and test/ledger_test.rb, run by a Rake::TestTask. */
export function makeMinitestProject(name = 'ledger-mini'): Promise<string> {
  return makeGitRepo(name, [
    {
      message: 'Add a ledger of amounts in cents, with tests',
      files: {
        Rakefile: "require 'rake/testtask'\n\nRake::TestTask.new(:test) do |t|\n  t.libs << 'test'\n  t.pattern = 'test/**/*_test.rb'\nend\n\ntask default: :test\n",
        'lib/ledger.rb': LEDGER_V2,
        'test/test_helper.rb': TEST_HELPER,
        'test/ledger_test.rb': LEDGER_TEST,
      },
    },
  ]);
}
