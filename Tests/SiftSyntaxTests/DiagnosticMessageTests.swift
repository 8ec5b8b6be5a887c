import Testing

@testable import SiftSyntax

/// Full rendered diagnostics (`line:column: error: message`, the source line, the caret and
/// tilde span, the `hint:` line) for a wide range of one-line mistakes.
@Suite struct DiagnosticMessageTests {
  static let cases: [(String, String)] = [
    (
      "name == \"Adam\" AND age >",
      """
      1:25: error: expected an expression after '>', found end of input
      name == "Adam" AND age >
                              ^
      """
    ),
    (
      "a == 1 OR OR b == 2",
      """
      1:11: error: expected a predicate after 'OR', found keyword OR
      a == 1 OR OR b == 2
                ^~
      """
    ),
    (
      "a == 1 AND",
      """
      1:11: error: expected a predicate after 'AND', found end of input
      a == 1 AND
                ^
      """
    ),
    (
      "a == 1 && !",
      """
      1:12: error: expected a predicate after '!', found end of input
      a == 1 && !
                 ^
      """
    ),
    (
      "",
      """
      1:1: error: expected a predicate, found end of input

      ^
      hint: the format string is empty; TRUEPREDICATE is the predicate that is always true
      """
    ),
    (
      ") == 1",
      """
      1:1: error: expected a predicate, found ')'
      ) == 1
      ^
      """
    ),
    (
      "like == 1",
      """
      1:1: error: 'LIKE' is a reserved word and cannot be used as a key here
      like == 1
      ^~~~
      hint: write #like to use it as a key
      """
    ),
    (
      "a.first == 1",
      """
      1:3: error: 'FIRST' is a reserved word and cannot be used as a key here
      a.first == 1
        ^~~~~
      hint: write #first to use it as a key
      """
    ),
    (
      "a BEGINSWITH[x] 'y'",
      """
      1:14: error: unknown option 'x' for BEGINSWITH
      a BEGINSWITH[x] 'y'
                   ^
      hint: options are c (case), d (diacritics), n (normalized), l (locale), as in [cd]
      """
    ),
    (
      "a ==[] b",
      """
      1:6: error: expected option letters after '[', found ']'
      a ==[] b
           ^
      hint: options are c (case), d (diacritics), n (normalized), l (locale), as in [cd]
      """
    ),
    (
      "a contains[c d] 'x'",
      """
      1:14: error: expected ']' after the options, found 'd'
      a contains[c d] 'x'
                   ^
      hint: write the option letters together, as in [cd]
      """
    ),
    (
      "a LIKE[c 'x'",
      """
      1:10: error: expected ']' after the options, found string "x"
      a LIKE[c 'x'
               ^~~
      hint: to match the '[' at 1:7
      """
    ),
    (
      "a",
      """
      1:2: error: expected a comparison operator after the expression
      a
       ^
      hint: a format string is a predicate, not a value: compare it, as in a == …
      """
    ),
    (
      "TRUE",
      """
      1:5: error: expected a comparison operator after the expression
      TRUE
          ^
      hint: a format string is a predicate, not a value: compare it, as in TRUE == …
      """
    ),
    (
      "a + 1",
      """
      1:6: error: expected a comparison operator, found end of input
      a + 1
           ^
      hint: operators are == != < <= > >= BETWEEN IN CONTAINS BEGINSWITH ENDSWITH LIKE MATCHES
      """
    ),
    (
      "ANY == 1",
      """
      1:5: error: expected an expression after 'ANY', found '=='
      ANY == 1
          ^~
      """
    ),
    (
      "ANY ANY a == 1",
      """
      1:5: error: expected an expression after 'ANY', found keyword ANY
      ANY ANY a == 1
          ^~~
      """
    ),
    (
      "a == avg(x)",
      """
      1:6: error: unknown function 'avg'
      a == avg(x)
           ^~~
      hint: did you mean average?
      """
    ),
    (
      "SUM(x) == 1",
      """
      1:1: error: unknown function 'SUM'
      SUM(x) == 1
      ^~~
      hint: function names are case-sensitive: did you mean sum?
      """
    ),
    (
      "frobnicate(x) == 1",
      """
      1:1: error: unknown function 'frobnicate'
      frobnicate(x) == 1
      ^~~~~~~~~~
      hint: functions are those of NSExpression (sum, count, average, …); call registered Swift functions with FUNCTION(receiver, 'name', …)
      """
    ),
    (
      "a == sum(1, 2)",
      """
      1:6: error: sum takes 1 argument, not 2
      a == sum(1, 2)
           ^~~~~~~~~
      """
    ),
    (
      "SUBQUERY(x, y, y == 1).@count == 0",
      """
      1:13: error: expected a $variable as the second argument of SUBQUERY, found 'y'
      SUBQUERY(x, y, y == 1).@count == 0
                  ^
      hint: write SUBQUERY(collection, $x, predicate); $x stands for each element in turn
      """
    ),
    (
      "SUBQUERY(x, $y).@count == 0",
      """
      1:15: error: expected ',' after the variable of SUBQUERY, found ')'
      SUBQUERY(x, $y).@count == 0
                    ^
      hint: write SUBQUERY(collection, $x, predicate); $x stands for each element in turn
      """
    ),
    (
      "TERNARY(a, 1, 2) == 1",
      """
      1:10: error: expected a comparison operator, found ','
      TERNARY(a, 1, 2) == 1
               ^
      hint: the first argument of TERNARY is a predicate, as in TERNARY(flag == TRUE, 1, 2)
      """
    ),
    (
      "TERNARY(a == 1, 2) == 1",
      """
      1:18: error: expected ',' after the second argument of TERNARY, found ')'
      TERNARY(a == 1, 2) == 1
                       ^
      hint: write TERNARY(predicate, value-if-true, value-if-false)
      """
    ),
    (
      "FUNCTION(a) == 1",
      """
      1:11: error: expected ',' after the receiver of FUNCTION, found ')'
      FUNCTION(a) == 1
                ^
      hint: write FUNCTION(receiver, 'name', argument, …)
      """
    ),
    (
      "a == CAST(1, NSNumber)",
      """
      1:14: error: expected a class name such as 'NSNumber' in quotes, found 'NSNumber'
      a == CAST(1, NSNumber)
                   ^~~~~~~~
      """
    ),
    (
      "a == CAST(1)",
      """
      1:12: error: expected ',' after the value of CAST, found ')'
      a == CAST(1)
                 ^
      hint: write CAST(value, 'Type'), as in CAST('3', 'NSNumber')
      """
    ),
    (
      "a IN {1, 2",
      """
      1:11: error: expected '}' to close the aggregate, found end of input
      a IN {1, 2
                ^
      hint: to match the '{' at 1:6
      """
    ),
    (
      "a IN {1,}",
      """
      1:9: error: expected an expression, found '}'
      a IN {1,}
              ^
      """
    ),
    (
      "a == 1 AND (b == 2",
      """
      1:19: error: expected ')' to close the parenthesised predicate, found end of input
      a == 1 AND (b == 2
                        ^
      hint: to match the '(' at 1:12
      """
    ),
    (
      "a == (b",
      """
      1:8: error: expected ')' to close the parenthesised expression, found end of input
      a == (b
             ^
      hint: to match the '(' at 1:6
      """
    ),
    (
      "(a == 1))",
      """
      1:9: error: unexpected ')' after the end of the predicate
      (a == 1))
              ^
      hint: this ')' has no matching '('
      """
    ),
    (
      "a == nums[1",
      """
      1:12: error: expected ']' after the index, found end of input
      a == nums[1
                 ^
      hint: to match the '[' at 1:10
      """
    ),
    (
      "a[] == 1",
      """
      1:3: error: expected an index, found ']'
      a[] == 1
        ^
      hint: an index is FIRST, LAST, SIZE, a number or a dictionary key
      """
    ),
    (
      "a[FIRST == 1",
      """
      1:9: error: expected ']' after FIRST, found '=='
      a[FIRST == 1
              ^~
      hint: FIRST stands alone in an index, as in a[FIRST]; write #first for a key of that name
      """
    ),
    (
      "a..b == 1",
      """
      1:3: error: expected a key after '.', found '.'
      a..b == 1
        ^
      """
    ),
    (
      "a == 1 b == 2",
      """
      1:8: error: unexpected 'b' after the end of the predicate
      a == 1 b == 2
             ^
      hint: join predicates with AND or OR
      """
    ),
    (
      "a == 'it''s'",
      """
      1:10: error: unexpected string "s" after the end of the predicate
      a == 'it''s'
               ^~~
      hint: quotes are not doubled inside a string; escape them, as in 'it\\'s'
      """
    ),
    (
      "a == 1 }",
      """
      1:8: error: unexpected '}' after the end of the predicate
      a == 1 }
             ^
      hint: this '}' has no matching '{'
      """
    ),
    (
      "ALL NONE a == 1",
      """
      1:5: error: expected an expression after 'ALL', found keyword NONE
      ALL NONE a == 1
          ^~~~
      """
    ),
    (
      "a.UTI-EQUALS == 1",
      """
      1:3: error: 'UTI-EQUALS' is a reserved word and cannot be used as a key here
      a.UTI-EQUALS == 1
        ^~~~~~~~~~
      """
    ),
    (
      "name == “Bob”",
      """
      1:9: error: unexpected character '“'
      name == “Bob”
              ^
      hint: strings are written with straight quotes, ' or "
      """
    ),
    (
      "add:(1, 2) == 3",
      """
      1:1: error: unknown function 'add:'
      add:(1, 2) == 3
      ^~~~
      hint: functions are those of NSExpression (sum, count, average, …); call registered Swift functions with FUNCTION(receiver, 'name', …)
      """
    ),
    (
      "distanceToLocation:fromLocation:(a, b) < 10",
      """
      1:1: error: distanceToLocation:fromLocation: is not supported on this platform
      distanceToLocation:fromLocation:(a, b) < 10
      ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
      """
    ),
    (
      "s == '\\uD83D'",
      """
      1:7: error: escape does not name a Unicode scalar
      s == '\\uD83D'
            ^~~~~~
      hint: surrogate halves (D800–DFFF) cannot stand alone
      """
    ),
    (
      "a == 1 == 2",
      """
      1:8: error: unexpected '==' after the end of the predicate
      a == 1 == 2
             ^~
      hint: join predicates with AND or OR
      """
    ),
    (
      "a === 1",
      """
      1:5: error: expected an expression after '==', found '='
      a === 1
          ^
      hint: '===' is not an operator; comparisons are == != < <= > >=
      """
    ),
    (
      "a ≠ 1",
      """
      1:3: error: unexpected character '≠'
      a ≠ 1
        ^
      hint: write != (or <>) for 'not equal'
      """
    ),
    (
      "a := 1 == 1",
      """
      1:3: error: expected a comparison operator, found ':='
      a := 1 == 1
        ^~
      hint: only a $variable can be assigned, as in $x := 1
      """
    ),
    (
      "a == .5",
      """
      1:6: error: expected an expression after '==', found '.'
      a == .5
           ^
      hint: a number cannot start with '.'; write 0.5
      """
    ),
    (
      "a == 5 ? 1 : 2",
      """
      1:8: error: unexpected character '?'
      a == 5 ? 1 : 2
             ^
      hint: '?' has no meaning outside quotes; use LIKE 'a?c' for a one-character wildcard
      """
    ),
    (
      "a == 1; b == 2",
      """
      1:7: error: unexpected character ';'
      a == 1; b == 2
            ^
      hint: a format string holds exactly one predicate
      """
    ),
    (
      "a == \"abc",
      """
      1:6: error: unterminated string
      a == "abc
           ^
      hint: the string that starts here has no closing "
      """
    ),
    (
      "a == '\\ud800'",
      """
      1:7: error: escape does not name a Unicode scalar
      a == '\\ud800'
            ^~~~~~
      hint: surrogate halves (D800–DFFF) cannot stand alone
      """
    ),
    (
      "a == '\\x4'",
      """
      1:7: error: expected 2 hexadecimal digits after '\\x'
      a == '\\x4'
            ^~~
      """
    ),
    (
      "a == 12abc",
      """
      1:6: error: invalid number literal
      a == 12abc
           ^~~~~
      """
    ),
    (
      "a == 0x",
      """
      1:6: error: expected digits after the number prefix
      a == 0x
           ^~
      """
    ),
    (
      "a == 1e999",
      """
      1:6: error: number literal is out of range
      a == 1e999
           ^~~~~
      """
    ),
    (
      "%k == 3",
      """
      1:1: error: unknown format specifier
      %k == 3
      ^~
      hint: specifiers are %@ (value), %K (key path), %d %i %u %x %o %c (integer), %f %e %g (number), %s, %%
      """
    ),
    (
      "a == %@",
      """
      1:6: error: no argument for this format specifier: it is number 1, but 0 arguments were given
      a == %@
           ^~
      hint: pass one argument per %@, %K or numeric specifier, in order
      """
    ),
    (
      "a == %%",
      """
      1:6: error: '%%' is a literal percent sign, which has no meaning outside a string
      a == %%
           ^~
      hint: write it inside quotes, as in '100%'
      """
    ),
    (
      "$ == 1",
      """
      1:1: error: expected a variable name after '$'
      $ == 1
      ^
      hint: variables are written $name
      """
    ),
    (
      "a UTI-CONFORMS-TO 'public.image'",
      """
      1:3: error: UTI-CONFORMS-TO is not supported on this platform
      a UTI-CONFORMS-TO 'public.image'
        ^~~~~~~~~~~~~~~
      hint: uniform type identifiers exist only on Apple platforms
      """
    ),
    (
      "ANYKEY == 1",
      """
      1:1: error: ANYKEY is not supported on this platform
      ANYKEY == 1
      ^~~~~~
      """
    ),
  ]

  @Test(arguments: cases)
  func rendered(_ source: String, _ expected: String) {
    #expect(diagnostic(source) == expected)
  }

  @Test func renderedArgumentErrors() {
    #expect(
      diagnostic("a == %@ AND b == %d", [1, "x"]) == """
        1:18: error: %d expects an integer, but argument 2 is the string "x"
        a == %@ AND b == %d
                         ^~
        """)
    #expect(
      diagnostic("%K == 1", ["a..b"]) == """
        1:1: error: argument 1 is not a key path: "a..b"
        %K == 1
        ^~
        hint: a key path is one or more keys joined by '.'
        """)
  }
}
