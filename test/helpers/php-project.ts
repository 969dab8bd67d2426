/**
 * A small PHP library made on the spot: `slugkit`, URL slugs and a word
 * counter, tested with PHPUnit as packages usually are (phpunit.xml.dist with
 * a tests/bootstrap.php that autoloads src/, one *Test.php class a unit, a
 * composer.json with autoload-dev), and no packages beyond what Debian ships.
 * A history of three commits of which one is a fix that came with its test.
 */
import { makeGitRepo } from './git-repo.js';

const COMPOSER = `{
    "name": "example/slugkit",
    "description": "URL slugs and word counts",
    "type": "library",
    "require": { "php": ">=8.1" },
    "require-dev": { "phpunit/phpunit": "^9.6" },
    "autoload": { "psr-4": { "Slugkit\\\\": "src/" } },
    "autoload-dev": { "psr-4": { "Slugkit\\\\Tests\\\\": "tests/" } },
    "scripts": { "test": "phpunit" }
}
`;

const PHPUNIT_XML = `<?xml version="1.0" encoding="UTF-8"?>
<phpunit bootstrap="tests/bootstrap.php" colors="false" cacheResult="false">
    <testsuites>
        <testsuite name="slugkit">
            <directory>tests</directory>
        </testsuite>
    </testsuites>
    <php>
        <ini name="precision" value="14"/>
    </php>
</phpunit>
`;

const BOOTSTRAP = `<?php

declare(strict_types=1);

spl_autoload_register(function (string $class): void {
    $prefix = 'Slugkit\\\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/../src/' . str_replace('\\\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
`;

const SLUG_V1 = `<?php

declare(strict_types=1);

namespace Slugkit;

final class Slug
{
    /** Lower-case words of letters and digits joined by "-". */
    public static function of(string $text, string $separator = '-'): string
    {
        $words = preg_split('/[^a-z0-9]+/', strtolower($text), -1, PREG_SPLIT_NO_EMPTY);
        return implode($separator, $words);
    }

    /** The slug cut to at most $max characters, at a word boundary. */
    public static function truncate(string $slug, int $max): string
    {
        if (strlen($slug) <= $max) {
            return $slug;
        }
        $cut = substr($slug, 0, $max + 1);
        $at = strrpos($cut, '-');
        return $at === false ? substr($slug, 0, $max) : substr($cut, 0, $at);
    }
}
`;

const SLUG_V2 = SLUG_V1.replace("strtolower($text)", "strtolower(trim($text))").replace(
  "        $words = preg_split",
  "        $text = strtr($text, ['&' => ' and ']);\n        $words = preg_split",
);

const WORDS = `<?php

declare(strict_types=1);

namespace Slugkit;

final class Words
{
    public static function count(string $text): int
    {
        return count(preg_split('/\\s+/', trim($text), -1, PREG_SPLIT_NO_EMPTY));
    }

    /** Reading time in whole minutes at $perMinute words a minute, at least one for any text. */
    public static function minutes(string $text, int $perMinute = 200): int
    {
        $count = self::count($text);
        return $count === 0 ? 0 : max(1, (int) ceil($count / $perMinute));
    }
}
`;

const SLUG_TEST_V1 = `<?php

declare(strict_types=1);

namespace Slugkit\\Tests;

use PHPUnit\\Framework\\TestCase;
use Slugkit\\Slug;

final class SlugTest extends TestCase
{
    public function testLowerCasesWords(): void
    {
        $this->assertSame('hello-world', Slug::of('Hello World'));
    }

    public function testDropsPunctuation(): void
    {
        $this->assertSame('what-s-new', Slug::of("What's new?!"));
    }

    public function testUsesTheSeparatorGiven(): void
    {
        $this->assertSame('a_b_c', Slug::of('a b c', '_'));
    }

    public function testTruncatesAtAWordBoundary(): void
    {
        $this->assertSame('one-two', Slug::truncate('one-two-three', 9));
    }

    public function testKeepsShortSlugs(): void
    {
        $this->assertSame('short', Slug::truncate('short', 10));
    }
}
`;

const SLUG_TEST_V2 = SLUG_TEST_V1.replace(
  "    public function testUsesTheSeparatorGiven",
  "    public function testSpellsOutAmpersands(): void\n    {\n        $this->assertSame('salt-and-pepper', Slug::of('Salt & Pepper'));\n    }\n\n    public function testUsesTheSeparatorGiven",
);

const WORDS_TEST = `<?php

declare(strict_types=1);

namespace Slugkit\\Tests;

use PHPUnit\\Framework\\TestCase;
use Slugkit\\Words;

final class WordsTest extends TestCase
{
    public function testCountsWordsAcrossLines(): void
    {
        $this->assertSame(4, Words::count("one two\\nthree  four"));
    }

    public function testEmptyTextHasNoWords(): void
    {
        $this->assertSame(0, Words::count("  \\n "));
    }

    public function testShortTextTakesAMinute(): void
    {
        $this->assertSame(1, Words::minutes('a few words'));
    }

    public function testRoundsMinutesUp(): void
    {
        $this->assertSame(2, Words::minutes(str_repeat('word ', 201)));
    }
}
`;

/** The tests PHPUnit runs at the last commit, as Class::method. */
export const PHP_TESTS = [
  'Slugkit\\Tests\\SlugTest::testLowerCasesWords',
  'Slugkit\\Tests\\SlugTest::testDropsPunctuation',
  'Slugkit\\Tests\\SlugTest::testSpellsOutAmpersands',
  'Slugkit\\Tests\\SlugTest::testUsesTheSeparatorGiven',
  'Slugkit\\Tests\\SlugTest::testTruncatesAtAWordBoundary',
  'Slugkit\\Tests\\SlugTest::testKeepsShortSlugs',
  'Slugkit\\Tests\\WordsTest::testCountsWordsAcrossLines',
  'Slugkit\\Tests\\WordsTest::testEmptyTextHasNoWords',
  'Slugkit\\Tests\\WordsTest::testShortTextTakesAMinute',
  'Slugkit\\Tests\\WordsTest::testRoundsMinutesUp',
];

/** The same tests as testdox prints them under their classes. */
export const PHP_TESTDOX = [
  'Lower cases words',
  'Drops punctuation',
  'Spells out ampersands',
  'Uses the separator given',
  'Truncates at a word boundary',
  'Keeps short slugs',
  'Counts words across lines',
  'Empty text has no words',
  'Short text takes a minute',
  'Rounds minutes up',
];

export function makePhpProject(name = 'slugkit'): Promise<string> {
  return makeGitRepo(name, [
    {
      message: 'Add slugs, with tests',
      files: { 'composer.json': COMPOSER, 'phpunit.xml.dist': PHPUNIT_XML, '.gitignore': '/vendor/\n', 'tests/bootstrap.php': BOOTSTRAP, 'src/Slug.php': SLUG_V1, 'tests/SlugTest.php': SLUG_TEST_V1 },
    },
    { message: 'Add a word counter and reading time', files: { 'src/Words.php': WORDS, 'tests/WordsTest.php': WORDS_TEST } },
    { message: 'Spell out ampersands in slugs', files: { 'src/Slug.php': SLUG_V2, 'tests/SlugTest.php': SLUG_TEST_V2 } },
  ]);
}
