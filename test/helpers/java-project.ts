/**
 * A small Java library made on the spot, in Maven's folder layout but with no
 * build tool: `shelf`, a few classes (an ISBN check, a book, a shelf that
 * sorts and searches), JUnit 5 tests under src/test/java compiled with javac
 * and run by the JUnit console launcher, and a history of four commits of
 * which one is a fix that came with its test.
 */
import { makeGitRepo } from './git-repo.js';

const ISBN_V1 = `package org.example.shelf;

/** ISBN-13 numbers: checking and normalising. */
public final class Isbn {
    private Isbn() {}

    /** The 13 digits of an ISBN written with or without dashes and spaces. */
    public static String normalise(String text) {
        return text.replaceFirst("-", "");
    }

    /** True when the check digit matches (weights 1 and 3, alternating). */
    public static boolean isValid(String text) {
        String digits = normalise(text);
        if (!digits.matches("\\\\d{13}")) {
            return false;
        }
        int sum = 0;
        for (int i = 0; i < 12; i++) {
            sum += (digits.charAt(i) - '0') * (i % 2 == 0 ? 1 : 3);
        }
        return (10 - sum % 10) % 10 == digits.charAt(12) - '0';
    }
}
`;

const ISBN_V2 = ISBN_V1.replace('return text.replaceFirst("-", "");', 'return text.replaceAll("[\\\\s-]", "");');

const BOOK = `package org.example.shelf;

/** A book on the shelf. */
public record Book(String title, String author, int year, String isbn) {
    public Book {
        if (!Isbn.isValid(isbn)) {
            throw new IllegalArgumentException("not a valid ISBN-13: " + isbn);
        }
        isbn = Isbn.normalise(isbn);
    }
}
`;

const SHELF = `package org.example.shelf;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Books kept in order of author, then year. */
public final class Shelf {
    private final List<Book> books = new ArrayList<>();

    public void add(Book book) {
        books.add(book);
        books.sort(Comparator.comparing(Book::author).thenComparingInt(Book::year));
    }

    public List<Book> books() {
        return List.copyOf(books);
    }

    public Optional<Book> byIsbn(String isbn) {
        String wanted = Isbn.normalise(isbn);
        return books.stream().filter(b -> b.isbn().equals(wanted)).findFirst();
    }

    public List<Book> byAuthor(String author) {
        return books.stream().filter(b -> b.author().equalsIgnoreCase(author)).toList();
    }
}
`;

const ISBN_TEST_V1 = `package org.example.shelf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class IsbnTest {
    @Test
    void acceptsAValidNumber() {
        assertTrue(Isbn.isValid("9780306406157"));
    }

    @Test
    void acceptsDashes() {
        assertTrue(Isbn.isValid("978-0306406157"));
    }

    @Test
    void rejectsAWrongCheckDigit() {
        assertFalse(Isbn.isValid("9780306406158"));
    }

    @Test
    void rejectsLetters() {
        assertFalse(Isbn.isValid("97803064061X7"));
    }

    @Test
    void normaliseDropsDashes() {
        assertEquals("9780306406157", Isbn.normalise("978-0306406157"));
    }
}
`;

const ISBN_TEST_V2 = ISBN_TEST_V1.replace(
  /}\n$/,
  `
    @Test
    void acceptsSpacesAndEveryDash() {
        assertTrue(Isbn.isValid("978 0 306 40615 7"));
        assertEquals("9780306406157", Isbn.normalise("978-0-306-40615-7"));
    }
}
`,
);

const SHELF_TEST = `package org.example.shelf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShelfTest {
    private static Shelf shelf() {
        Shelf shelf = new Shelf();
        shelf.add(new Book("Later", "Le Guin", 1974, "9780306406157"));
        shelf.add(new Book("Earlier", "Le Guin", 1969, "9781861972712"));
        shelf.add(new Book("Other", "Adams", 1979, "9780140449136"));
        return shelf;
    }

    @Test
    void keepsAuthorThenYearOrder() {
        List<String> titles = shelf().books().stream().map(Book::title).toList();
        assertEquals(List.of("Other", "Earlier", "Later"), titles);
    }

    @Test
    void findsByIsbnWrittenWithDashes() {
        assertEquals("Earlier", shelf().byIsbn("978-1861972712").orElseThrow().title());
    }

    @Test
    void findsByAuthorIgnoringCase() {
        assertEquals(2, shelf().byAuthor("le guin").size());
    }

    @Test
    void unknownIsbnFindsNothing() {
        assertTrue(shelf().byIsbn("9780306406157").isPresent());
        assertTrue(shelf().byIsbn("9780000000002").isEmpty());
    }

    @Test
    void refusesABookWithABadIsbn() {
        assertThrows(IllegalArgumentException.class, () -> new Book("X", "Y", 2000, "123"));
    }
}
`;

/** The test methods the console launcher reports at the last commit. */
export const JAVA_TESTS = [
  'acceptsAValidNumber()', 'acceptsDashes()', 'rejectsAWrongCheckDigit()', 'rejectsLetters()', 'normaliseDropsDashes()', 'acceptsSpacesAndEveryDash()',
  'keepsAuthorThenYearOrder()', 'findsByIsbnWrittenWithDashes()', 'findsByAuthorIgnoringCase()', 'unknownIsbnFindsNothing()', 'refusesABookWithABadIsbn()',
];

const MAIN = 'src/main/java/org/example/shelf';
const TEST = 'src/test/java/org/example/shelf';

export function makeJavaProject(name = 'shelf'): Promise<string> {
  return makeGitRepo(name, [
    { message: 'Add ISBN-13 checks', files: { 'README.md': '# shelf\n', [`${MAIN}/Isbn.java`]: ISBN_V1, [`${TEST}/IsbnTest.java`]: ISBN_TEST_V1 } },
    { message: 'Add books and a shelf', files: { [`${MAIN}/Book.java`]: BOOK, [`${MAIN}/Shelf.java`]: SHELF, [`${TEST}/ShelfTest.java`]: SHELF_TEST } },
    { message: 'Fix ISBN normalising removing only the first dash', files: { [`${MAIN}/Isbn.java`]: ISBN_V2, [`${TEST}/IsbnTest.java`]: ISBN_TEST_V2 } },
    { message: 'Describe the library', files: { 'README.md': '# shelf\n\nBooks on a shelf, found by ISBN-13 or author.\n' } },
  ]);
}
