/**
 * A small C++ library made on the spot: `tally`, running statistics over
 * samples and a parser of "key=value" lines, built with CMake. Its tests are
 * what such projects hold: GoogleTest cases found by gtest_discover_tests
 * (tests/stats_test.cc) and Catch2 cases found by catch_discover_tests
 * (tests/parse_test.cpp), both run by CTest; a compile definition only the
 * tests see (TALLY_EPSILON) in CMakeLists.txt; and a history of three commits
 * of which one is a fix that came with its test.
 */
import { makeGitRepo } from './git-repo.js';

const CMAKE = `cmake_minimum_required(VERSION 3.16)
project(tally CXX)

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)

add_library(tally src/stats.cc src/parse.cc)
target_include_directories(tally PUBLIC include)

enable_testing()
find_package(GTest REQUIRED)
find_package(Catch2 REQUIRED)
include(GoogleTest)
include(Catch)

add_executable(stats_test tests/stats_test.cc)
target_link_libraries(stats_test PRIVATE tally GTest::gtest_main)
target_compile_definitions(stats_test PRIVATE TALLY_EPSILON=1e-9)
gtest_discover_tests(stats_test)

add_executable(parse_test tests/parse_test.cpp)
target_link_libraries(parse_test PRIVATE tally Catch2::Catch2)
catch_discover_tests(parse_test)
`;

const STATS_H = `#pragma once
#include <cstddef>
#include <vector>

namespace tally {

/** Running statistics over the samples added so far. */
class Stats {
 public:
  void add(double value);
  std::size_t count() const { return values_.size(); }
  double mean() const;
  double min() const;
  double max() const;
  /** The middle sample once sorted (the mean of the two middle ones for an even count); 0 when empty. */
  double median() const;

 private:
  std::vector<double> values_;
};

}  // namespace tally
`;

const STATS_V1 = `#include "tally/stats.h"

#include <algorithm>
#include <numeric>

namespace tally {

void Stats::add(double value) { values_.push_back(value); }

double Stats::mean() const {
  if (values_.empty()) return 0.0;
  return std::accumulate(values_.begin(), values_.end(), 0.0) / static_cast<double>(values_.size());
}

double Stats::min() const {
  if (values_.empty()) return 0.0;
  return *std::min_element(values_.begin(), values_.end());
}

double Stats::max() const {
  if (values_.empty()) return 0.0;
  return *std::max_element(values_.begin(), values_.end());
}

double Stats::median() const {
  if (values_.empty()) return 0.0;
  std::vector<double> sorted = values_;
  std::sort(sorted.begin(), sorted.end());
  std::size_t mid = sorted.size() / 2;
  return sorted[mid];
}

}  // namespace tally
`;

const STATS_V2 = STATS_V1.replace(
  '  std::size_t mid = sorted.size() / 2;\n  return sorted[mid];\n',
  '  std::size_t mid = sorted.size() / 2;\n  if (sorted.size() % 2 == 0) return (sorted[mid - 1] + sorted[mid]) / 2.0;\n  return sorted[mid];\n',
);

const PARSE_H = `#pragma once
#include <map>
#include <string>

namespace tally {

/** Reads "key=value" lines; blank lines and lines starting with # are skipped, spaces around keys and values trimmed. */
std::map<std::string, std::string> parse_pairs(const std::string& text);

}  // namespace tally
`;

const PARSE_CC = `#include "tally/parse.h"

#include <sstream>

namespace tally {

static std::string trim(const std::string& s) {
  std::size_t start = s.find_first_not_of(" \\t");
  if (start == std::string::npos) return "";
  std::size_t end = s.find_last_not_of(" \\t");
  return s.substr(start, end - start + 1);
}

std::map<std::string, std::string> parse_pairs(const std::string& text) {
  std::map<std::string, std::string> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    std::size_t eq = t.find('=');
    if (eq == std::string::npos) continue;
    out[trim(t.substr(0, eq))] = trim(t.substr(eq + 1));
  }
  return out;
}

}  // namespace tally
`;

const STATS_TEST_V1 = `#include <gtest/gtest.h>

#include "tally/stats.h"

#ifndef TALLY_EPSILON
#error "TALLY_EPSILON is set by CMakeLists.txt"
#endif

using tally::Stats;

TEST(StatsTest, EmptyHasZeroMean) {
  Stats s;
  EXPECT_EQ(s.count(), 0u);
  EXPECT_EQ(s.mean(), 0.0);
}

TEST(StatsTest, MeanOfThree) {
  Stats s;
  for (double v : {1.0, 2.0, 4.5}) s.add(v);
  EXPECT_NEAR(s.mean(), 2.5, TALLY_EPSILON);
}

TEST(StatsTest, MinAndMaxOfNegatives) {
  Stats s;
  for (double v : {-3.0, -7.5, -1.25}) s.add(v);
  EXPECT_EQ(s.min(), -7.5);
  EXPECT_EQ(s.max(), -1.25);
}

TEST(StatsTest, MeanOfTenths) {
  Stats s;
  for (double v : {0.1, 0.2}) s.add(v);
  EXPECT_NEAR(s.mean(), 0.15, TALLY_EPSILON);
}

TEST(MedianTest, OddCount) {
  Stats s;
  for (double v : {9.0, 1.0, 5.0}) s.add(v);
  EXPECT_EQ(s.median(), 5.0);
}
`;

const STATS_TEST_V2 = `${STATS_TEST_V1}
TEST(MedianTest, EvenCountIsMeanOfMiddleTwo) {
  Stats s;
  for (double v : {4.0, 1.0, 3.0, 2.0}) s.add(v);
  EXPECT_EQ(s.median(), 2.5);
}
`;

const PARSE_TEST = `#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "tally/parse.h"

TEST_CASE("reads key=value pairs", "[parse]") {
  auto pairs = tally::parse_pairs("a=1\\nb=two\\n");
  REQUIRE(pairs.size() == 2);
  CHECK(pairs["a"] == "1");
  CHECK(pairs["b"] == "two");
}

TEST_CASE("skips comments and blank lines", "[parse]") {
  auto pairs = tally::parse_pairs("# note\\n\\nx=9\\n");
  REQUIRE(pairs.size() == 1);
  CHECK(pairs["x"] == "9");
}

TEST_CASE("trims spaces around keys and values", "[parse]") {
  auto pairs = tally::parse_pairs("  name =  tally  \\n");
  CHECK(pairs["name"] == "tally");
}
`;

/** The tests CTest runs at the last commit, by the names it gives them. */
export const CPP_TESTS = [
  'StatsTest.EmptyHasZeroMean',
  'StatsTest.MeanOfThree',
  'StatsTest.MinAndMaxOfNegatives',
  'StatsTest.MeanOfTenths',
  'MedianTest.OddCount',
  'MedianTest.EvenCountIsMeanOfMiddleTwo',
  'reads key=value pairs',
  'skips comments and blank lines',
  'trims spaces around keys and values',
];

export function makeCppProject(name = 'tally'): Promise<string> {
  return makeGitRepo(name, [
    {
      message: 'Add running statistics and their tests',
      files: {
        'CMakeLists.txt': CMAKE.replace(/\nadd_executable\(parse_test[\s\S]*$/, '').replace('src/stats.cc src/parse.cc', 'src/stats.cc').replace('find_package(Catch2 REQUIRED)\n', '').replace('include(Catch)\n', ''),
        '.gitignore': '/build/\n',
        'include/tally/stats.h': STATS_H,
        'src/stats.cc': STATS_V1,
        'tests/stats_test.cc': STATS_TEST_V1,
      },
    },
    { message: 'Add a parser of key=value lines, tested with Catch2', files: { 'CMakeLists.txt': CMAKE, 'include/tally/parse.h': PARSE_H, 'src/parse.cc': PARSE_CC, 'tests/parse_test.cpp': PARSE_TEST } },
    { message: 'Fix the median of an even number of samples', files: { 'src/stats.cc': STATS_V2, 'tests/stats_test.cc': STATS_TEST_V2 } },
  ]);
}
