import Foundation
import Sift
import SiftReference
import Testing

/// The reference evaluator against every rule of Documentation/Semantics.md, one table per
/// section. Rows evaluate against ``RefFixtures/record`` unless they say otherwise.
@Suite("Reference evaluator")
struct ReferenceEvaluatorTests {
  // MARK: Values

  static let values: [RefRow] = [
    refRow("nothing == nil", .t),
    refRow("missing == nil", .t),
    refRow("nothing == missing", .t),
    refRow("flag == 1", .t),
    refRow("off == 0", .t),
    refRow("flag + 1 == 2", .t),
    refRow("TRUE == YES", .t),
    refRow("when == CAST(100, 'NSDate')", .t),
  ]

  @Test(arguments: values) func valueKinds(_ r: RefRow) { #expect(refOutcome(of: r) == r.expected) }

  // MARK: Equality

  static let equality: [RefRow] = [
    refRow("3 == 3.0", .t),
    refRow("YES == 1", .t),
    refRow("NO == 0", .t),
    refRow("3 == YES", .f),
    refRow("a == 1.0", .t),
    refRow("big == 9223372036854775807", .t),
    refRow("big == 9223372036854775808.0", .f),
    refRow("'é' == 'e\u{301}'", .f),
    refRow("cafe == cafe_nfd", .f),
    refRow("cafe ==[d] cafe_nfd", .t),
    refRow("cafe ==[c] 'CAFÉ'", .t),
    refRow("cafe ==[c] 'CAFE'", .f),
    refRow("cafe ==[cd] 'CAFE'", .t),
    refRow("word ==[c] shout", .t),
    refRow("word == shout", .f),
    refRow("wide ==[c] 'abc'", .t),
    refRow("wide ==[d] 'ABC'", .t),
    refRow("istanbul ==[c] 'i\u{307}stanbul'", .t),
    refRow("istanbul ==[cd] 'ISTANBUL'", .t),
    refRow("istanbul ==[c] 'ISTANBUL'", .f),
    refRow("greek ==[c] greek_lower", .t),
    refRow("greek ==[cd] 'σισυφοσ'", .t),
    refRow("name ==[n] 'Alice'", .t),
    refRow("name ==[l] 'alice'", .f),
    refRow("name ==[cl] 'alice'", .t),
    refRow("when == CAST(100.0, 'NSDate')", .t),
    refRow("when == 100", .f),
    refRow("nums == {1, 2, 3, 4}", .t),
    refRow("nums == {1.0, 2, 3, 4}", .t),
    refRow("nums == {1, 2, 3}", .f),
    refRow("nums == {4, 3, 2, 1}", .f),
    refRow("tags ==[c] {'RED', 'GREEN', 'BLUE'}", .t),
    refRow("tags == {'RED', 'GREEN', 'BLUE'}", .f),
    refRow("dict == %@", .t, args: [["k": 1, "j": "v"]]),
    refRow("dict == %@", .t, args: [["k": 1.0, "j": "v"]]),
    refRow("dict == %@", .f, args: [["k": 1]]),
    refRow("dict == %@", .f, args: [["k": 1, "i": "v"]]),
    refRow("3 == '3'", .f),
    refRow("nil == 0", .f),
    refRow("nothing == 0", .f),
    refRow("name == 5", .f),
    refRow("nums == 1", .f),
    refRow("nil == nil", .t),
    refRow("nil != nil", .f),
    refRow("nothing != 0", .t),
    refRow("3 != '3'", .t),
    refRow("a ==[c] 1", .t),
    refRow("sqrt(-1) == sqrt(-1)", .f),
    refRow("sqrt(-1) != sqrt(-1)", .t),
  ]

  @Test(arguments: equality) func equalityRules(_ r: RefRow) { #expect(refOutcome(of: r) == r.expected) }

  // MARK: Ordering

  static let ordering: [RefRow] = [
    refRow("1 < 2.5", .t),
    refRow("b > a", .t),
    refRow("big < 9223372036854775808.0", .t),
    refRow("'B' < 'a'", .t),
    refRow("'10' < '9'", .t),
    refRow("'abc' < 'abd'", .t),
    refRow("'abc' < 'abcd'", .t),
    refRow("'a' < 'B'", .f),
    refRow("'a' <[c] 'B'", .t),
    refRow("'é' > 'f'", .t),
    refRow("'é' <[d] 'f'", .t),
    refRow("name >= name", .t),
    refRow("when < later", .t),
    refRow("later >= when", .t),
    refRow("nil <= nil", .t),
    refRow("nil >= nil", .t),
    refRow("nil < nil", .f),
    refRow("nil > nil", .f),
    refRow("nothing < 5", .f),
    refRow("5 > nothing", .f),
    refRow("nothing <= 5", .f),
    refRow("nothing >= name", .f),
    refRow("flag < 2", .t),
    refRow("a < '10'", .err(.typeMismatch)),
    refRow("'10' > a", .err(.typeMismatch)),
    refRow("nums < 5", .err(.typeMismatch)),
    refRow("tags <= tags", .err(.typeMismatch)),
    refRow("flag < 'x'", .err(.typeMismatch)),
    refRow("when < 5", .err(.typeMismatch)),
    refRow("dict > 1", .err(.typeMismatch)),
    refRow("sqrt(-1) < 1", .f),
  ]

  @Test(arguments: ordering) func orderingRules(_ r: RefRow) { #expect(refOutcome(of: r) == r.expected) }

  // MARK: BETWEEN

  static let between: [RefRow] = [
    refRow("a BETWEEN {1, 3}", .t),
    refRow("3 BETWEEN {1, 3}", .t),
    refRow("4 BETWEEN {1, 3}", .f),
    refRow("2.5 BETWEEN {2, 3}", .t),
    refRow("a BETWEEN {5, 1}", .f),
    refRow("'b' BETWEEN {'a', 'c'}", .t),
    refRow("'B' BETWEEN {'a', 'c'}", .f),
    refRow("'B' BETWEEN[c] {'a', 'c'}", .t),
    refRow("nothing BETWEEN {1, 2}", .f),
    refRow("nothing BETWEEN {nil, nil}", .f),
    refRow("a BETWEEN {nil, 5}", .f),
    refRow("a BETWEEN {1}", .err(.invalidArgument)),
    refRow("a BETWEEN {1, 2, 3}", .err(.invalidArgument)),
    refRow("a BETWEEN 5", .err(.invalidArgument)),
    refRow("a BETWEEN nil", .err(.invalidArgument)),
    refRow("nothing BETWEEN {1}", .err(.invalidArgument)),
    refRow("a BETWEEN {'a', 2}", .err(.typeMismatch)),
    refRow("5 BETWEEN {10, 'z'}", .f),
    refRow("a BETWEEN %@", .t, args: [[0, 2]]),
    refRow("when BETWEEN {CAST(0, 'NSDate'), CAST(150, 'NSDate')}", .t),
    refRow("ANY nums BETWEEN {4, 10}", .t),
    refRow("ALL nums BETWEEN {2, 10}", .f),
  ]

  @Test(arguments: between) func betweenRules(_ r: RefRow) { #expect(refOutcome(of: r) == r.expected) }

  // MARK: String operators

  static let strings: [RefRow] = [
    refRow("name BEGINSWITH 'Al'", .t),
    refRow("name BEGINSWITH 'al'", .f),
    refRow("name BEGINSWITH[c] 'al'", .t),
    refRow("name ENDSWITH 'ce'", .t),
    refRow("name CONTAINS 'lic'", .t),
    refRow("name CONTAINS ''", .f),
    refRow("name BEGINSWITH ''", .f),
    refRow("name ENDSWITH ''", .f),
    refRow("'' BEGINSWITH ''", .f),
    refRow("'ab' BEGINSWITH 'abc'", .f),
    refRow("name BEGINSWITH name", .t),
    refRow("nothing BEGINSWITH 'a'", .f),
    refRow("name BEGINSWITH nothing", .f),
    refRow("5 BEGINSWITH nil", .f),
    refRow("a BEGINSWITH '1'", .err(.typeMismatch)),
    refRow("name ENDSWITH 1", .err(.typeMismatch)),
    refRow("name CONTAINS 1", .err(.typeMismatch)),
    refRow("flag CONTAINS 'x'", .err(.typeMismatch)),
    refRow("when BEGINSWITH 'x'", .err(.typeMismatch)),
    refRow("name BEGINSWITH {'A'}", .err(.typeMismatch)),
    refRow("cafe BEGINSWITH[d] 'Cafe'", .t),
    refRow("'ÉCOLE' BEGINSWITH[cd] 'eco'", .t),
    refRow("'ÉCOLE' BEGINSWITH[c] 'eco'", .f),
    refRow("cafe_nfd CONTAINS 'e'", .t),
    refRow("cafe_nfd ENDSWITH 'e'", .f),
    refRow("cafe ENDSWITH[d] 'e'", .t),
    refRow("cafe_nfd ENDSWITH[d] 'e'", .t),
    refRow("word CONTAINS[c] 'SS'", .t),
    refRow("word CONTAINS 'ss'", .f),
    refRow("name CONTAINS[d] '\u{301}'", .f),
  ]

  @Test(arguments: strings) func stringOperators(_ r: RefRow) { #expect(refOutcome(of: r) == r.expected) }

  // MARK: LIKE

  static let like: [RefRow] = [
    refRow("name LIKE 'A*'", .t),
    refRow("name LIKE 'a*'", .f),
    refRow("name LIKE[c] 'a*'", .t),
    refRow("name LIKE 'Alice'", .t),
    refRow("name LIKE 'Ali'", .f),
    refRow("'ac' LIKE 'a?c'", .f),
    refRow("'abc' LIKE 'a?c'", .t),
    refRow("'a' LIKE 'a?'", .f),
    refRow("'abc' LIKE 'a.c'", .f),
    refRow("'a+b' LIKE 'a+b'", .t),
    refRow("'[a]' LIKE '[a]'", .t),
    refRow("'^$' LIKE '^$'", .t),
    refRow("'' LIKE '*'", .t),
    refRow("'' LIKE '?'", .f),
    refRow("'' LIKE ''", .t),
    refRow("'x' LIKE '**x**'", .t),
    refRow("'abcabc' LIKE '*b*b?'", .t),
    refRow("emoji LIKE '?'", .t),
    refRow("cafe LIKE 'Caf?'", .t),
    refRow("cafe_nfd LIKE 'Caf?'", .f),
    refRow("cafe_nfd LIKE 'Caf??'", .t),
    refRow("cafe LIKE[d] 'Cafe'", .t),
    refRow("cafe_nfd LIKE[d] 'Caf?'", .t),
    refRow("'a*b' LIKE 'a\\\\*b'", .t),
    refRow("'axb' LIKE 'a\\\\*b'", .f),
    refRow("'a?' LIKE 'a\\\\?'", .t),
    refRow("'ab' LIKE 'a\\\\?'", .f),
    refRow("'a\\\\b' LIKE 'a\\\\\\\\b'", .t),
    refRow("'a\\\\b' LIKE 'a\\\\b'", .t),
    refRow("'a\\\\' LIKE 'a\\\\'", .t),
    refRow("nothing LIKE '*'", .f),
    refRow("name LIKE nothing", .f),
    refRow("a LIKE '1'", .err(.typeMismatch)),
    refRow("name LIKE 1", .err(.typeMismatch)),
    refRow("word LIKE[c] 'STRASSE'", .t),
    refRow("word LIKE[c] 'stra?e'", .f),
    refRow("word LIKE 'stra?e'", .f),
    refRow("word LIKE 'Stra?e'", .t),
  ]

  @Test(arguments: like) func likeRules(_ r: RefRow) { #expect(refOutcome(of: r) == r.expected) }

  // MARK: MATCHES

  static let matches: [RefRow] = [
    refRow("name MATCHES 'A.*'", .t),
    refRow("name MATCHES 'A'", .f),
    refRow("'Hello World' MATCHES 'Hello'", .f),
    refRow("'Hello World' MATCHES 'World'", .f),
    refRow("name MATCHES ''", .f),
    refRow("'' MATCHES ''", .f),
    refRow("'' MATCHES 'a*'", .t),
    refRow("name MATCHES[c] 'alice'", .t),
    refRow("name MATCHES 'alice'", .f),
    refRow("'abc' MATCHES 'a|abc'", .t),
    refRow("'x\\n' MATCHES 'x'", .f),
    refRow("'a\\nb' MATCHES 'a.b'", .f),
    refRow("'abc' MATCHES[d] 'abc'", .t),
    refRow("'é' MATCHES[d] 'e'", .f),
    refRow("'٣' MATCHES '\\\\d'", .t),
    refRow("'é' MATCHES '\\\\w'", .t),
    refRow("emoji MATCHES '.'", .t),
    refRow("'a.c' MATCHES 'a\\\\.c'", .t),
    refRow("'abc' MATCHES 'a\\\\.c'", .f),
    refRow("name MATCHES '('", .err(.regex)),
    refRow("FALSEPREDICATE AND name MATCHES '('", .err(.regex)),
    refRow("nothing MATCHES '('", .err(.regex)),
    refRow("name MATCHES pattern", .err(.regex), object: ["name": "x", "pattern": "("]),
    refRow("FALSEPREDICATE AND name MATCHES pattern", .f, object: ["name": "x", "pattern": "("]),
    refRow("name MATCHES pattern", .t, object: ["name": "x", "pattern": "[a-z]"]),
    refRow("nothing MATCHES 'a'", .f),
    refRow("name MATCHES nothing", .f),
    refRow("a MATCHES '1'", .err(.typeMismatch)),
    refRow("name MATCHES 5", .err(.typeMismatch)),
    refRow("ANY tags MATCHES 'g.*'", .t),
  ]

  @Test(arguments: matches) func matchesRules(_ r: RefRow) { #expect(refOutcome(of: r) == r.expected) }

  // MARK: IN and CONTAINS on collections

  static let membership: [RefRow] = [
    refRow("'red' IN tags", .t),
    refRow("'RED' IN tags", .f),
    refRow("'RED' IN[c] tags", .t),
    refRow("1 IN nums", .t),
    refRow("1.0 IN nums", .t),
    refRow("'1' IN nums", .f),
    refRow("5 IN nums", .f),
    refRow("1 IN dict", .t),
    refRow("'k' IN dict", .f),
    refRow("'v' IN dict", .t),
    refRow("'V' IN[c] dict", .t),
    refRow("'lic' IN name", .t),
    refRow("'' IN name", .f),
    refRow("'LIC' IN[c] name", .t),
    refRow("5 IN name", .err(.typeMismatch)),
    refRow("nil IN tags", .f),
    refRow("nothing IN mixed", .f),
    refRow("'x' IN nothing", .f),
    refRow("1 IN 5", .err(.typeMismatch)),
    refRow("1 IN flag", .err(.typeMismatch)),
    refRow("1 IN when", .err(.typeMismatch)),
    refRow("nil IN 5", .f),
    refRow("a IN {1, 2, 3}", .t),
    refRow("{1, 2} IN grid", .t),
    refRow("{1, 2.0} IN grid", .t),
    refRow("name IN {'Alice', 'Bob'}", .t),
    refRow("name IN %@", .t, args: [["Bob", "Alice"]]),
    refRow("tags CONTAINS 'red'", .t),
    refRow("nums CONTAINS 2.0", .t),
    refRow("dict CONTAINS 1", .t),
    refRow("dict CONTAINS 'k'", .f),
    refRow("name CONTAINS 'Ali'", .t),
    refRow("a CONTAINS 1", .err(.typeMismatch)),
    refRow("tags CONTAINS nil", .f),
    refRow("nothing CONTAINS 1", .f),
    refRow("tags CONTAINS[c] 'RED'", .t),
    refRow("mixed CONTAINS 'two'", .t),
    refRow("nums CONTAINS {1}", .f),
    refRow("name CONTAINS {'A'}", .err(.typeMismatch)),
    refRow("'ell' IN 'hello'", .t),
  ]

  @Test(arguments: membership) func membershipRules(_ r: RefRow) { #expect(refOutcome(of: r) == r.expected) }

  // MARK: ANY SOME ALL NONE

  static let quantifiers: [RefRow] = [
    refRow("ANY nums > 3", .t),
    refRow("ANY nums > 4", .f),
    refRow("ALL nums > 0", .t),
    refRow("ALL nums > 1", .f),
    refRow("NONE nums > 4", .t),
    refRow("NONE nums > 3", .f),
    refRow("SOME nums == 2", .t),
    refRow("ANY none_list == 1", .f),
    refRow("ALL none_list == 1", .t),
    refRow("NONE none_list == 1", .t),
    refRow("ANY nothing == 1", .f),
    refRow("ALL nothing == 1", .t),
    refRow("NONE nothing == 1", .t),
    refRow("ANY missing == 1", .f),
    refRow("ANY a == 1", .err(.typeMismatch)),
    refRow("ALL dict == 1", .err(.typeMismatch)),
    refRow("ANY name == 'A'", .err(.typeMismatch)),
    refRow("ANY tags CONTAINS 'ee'", .t),
    refRow("ANY tags ==[c] 'RED'", .t),
    refRow("ANY tags BEGINSWITH 'b'", .t),
    refRow("ALL tags LIKE '*e*'", .t),
    refRow("ANY mixed > 2", .err(.typeMismatch)),
    refRow("ANY mixed < 2", .t),
    refRow("ALL mixed > 0", .err(.typeMismatch)),
    refRow("ALL mixed < 1", .f),
    refRow("ANY items.price > 3", .t),
    refRow("ALL items.price > 1", .f),
    refRow("ANY nested.list.v == 2", .t),
    refRow("ANY grid CONTAINS 3", .t),
    refRow("ANY nums IN {4, 5}", .t),
    refRow("ANY {1, 2} == 2", .t),
  ]

  @Test(arguments: quantifiers) func quantifierRules(_ r: RefRow) { #expect(refOutcome(of: r) == r.expected) }

  // MARK: Key paths and collection operators

  static let keyPaths: [RefRow] = [
    refRow("nested.x == 10", .t),
    refRow("nested.y.z == 'deep'", .t),
    refRow("nested.missing == nil", .t),
    refRow("nested.missing.deeper == nil", .t),
    refRow("nothing.x == nil", .t),
    refRow("SELF.a == 1", .t),
    refRow("SELF.nested.x == 10", .t),
    refRow("items.name == {'pen', 'ink', 'gift'}", .t),
    refRow("items.price == {2, 3.5, nil}", .t),
    refRow("nested.list.v == {1, 2}", .t),
    refRow("grid.length == 1", .err(.typeMismatch)),
    refRow("name.length == 5", .t),
    refRow("emoji.length == 2", .t),
    refRow("cafe_nfd.length == 5", .t),
    refRow("tags.length == {3, 5, 4}", .t),
    refRow("mixed.length == 1", .err(.typeMismatch)),
    refRow("name.foo == 1", .err(.typeMismatch)),
    refRow("a.b == 1", .err(.typeMismatch)),
    refRow("flag.x == 1", .err(.typeMismatch)),
    refRow("when.x == 1", .err(.typeMismatch)),
    refRow("name.self == 'Alice'", .t),
    refRow("#like == 'x'", .t, object: ["like": "x"]),
    refRow("%K == 'deep'", .t, args: ["nested.y.z"]),
    refRow("%K == 1", .f, object: ["k\u{E9}y": 1], args: ["ke\u{301}y"]),
    refRow("%K == 1", .t, object: ["k\u{E9}y": 1], args: ["k\u{E9}y"]),
    refRow("grid.@count == 3", .t),
    refRow("nums.@count == 4", .t),
    refRow("dict.@count == 2", .t),
    refRow("nums.@count.foo == 4", .t),
    refRow("nothing.@count == nil", .t),
    refRow("name.@count == 1", .err(.typeMismatch)),
    refRow("a.@count == 1", .err(.typeMismatch)),
    refRow("nums.@sum.self == 10", .t),
    refRow("nums.@sum == 10", .err(.invalidArgument)),
    refRow("nothing.@sum == nil", .err(.invalidArgument)),
    refRow("nums.@avg.self == 2.5", .t),
    refRow("nums.@min.self == 1", .t),
    refRow("nums.@max.self == 4", .t),
    refRow("items.@sum.price == 5.5", .t),
    refRow("items.@avg.price == 2.75", .t),
    refRow("items.@max.price == 3.5", .t),
    refRow("items.@min.name == 'gift'", .t),
    refRow("strs.@min.self == 'a'", .t),
    refRow("strs.@max.self == 'c'", .t),
    refRow("tags.@sum.self == 0", .err(.typeMismatch)),
    refRow("none_list.@sum.self == 0", .t),
    refRow("none_list.@avg.self == nil", .t),
    refRow("none_list.@min.self == nil", .t),
    refRow("none_list.@max.self == nil", .t),
    refRow("mixed.@sum.self == 0", .err(.typeMismatch)),
    refRow("mixed.@max.self == 1", .err(.typeMismatch)),
    refRow("grid.@max.self == 1", .err(.typeMismatch)),
    refRow("dict.@sum.self == 1", .err(.typeMismatch)),
    refRow("nothing.@sum.self == nil", .t),
    refRow("items.@unionOfObjects.name == {'pen', 'ink', 'gift'}", .t),
    refRow("items.@unionOfObjects.price == {2, 3.5}", .t),
    refRow("dups.@unionOfObjects.self == {1, 2, 1, 2.0, 3}", .t),
    refRow("dups.@distinctUnionOfObjects.self == {1, 2, 3}", .t),
    refRow("items.@unionOfObjects == {}", .err(.invalidArgument)),
    refRow("grid.@unionOfArrays == {1, 2, 2, 3, 4}", .t),
    refRow("grid.@distinctUnionOfArrays == {1, 2, 3, 4}", .t),
    refRow("grid.@distinctUnionOfSets == {1, 2, 3, 4}", .t),
    refRow("nums.@unionOfArrays == {}", .err(.typeMismatch)),
    refRow("SUBQUERY(items, $i, $i.price > 2).@count == 1", .t),
  ]

  @Test(arguments: keyPaths) func keyPathRules(_ r: RefRow) { #expect(refOutcome(of: r) == r.expected) }

  // MARK: Index

  static let index: [RefRow] = [
    refRow("tags[0] == 'red'", .t),
    refRow("tags[2] == 'blue'", .t),
    refRow("tags[3] == nil", .err(.indexOutOfRange)),
    refRow("tags[-1] == nil", .err(.indexOutOfRange)),
    refRow("tags[FIRST] == 'red'", .t),
    refRow("tags[LAST] == 'blue'", .t),
    refRow("tags[SIZE] == 3", .t),
    refRow("none_list[FIRST] == nil", .t),
    refRow("none_list[LAST] == nil", .t),
    refRow("none_list[SIZE] == 0", .t),
    refRow("dict[SIZE] == 2", .t),
    refRow("dict['k'] == 1", .t),
    refRow("dict['zz'] == nil", .t),
    refRow("dict[1] == nil", .err(.typeMismatch)),
    refRow("nothing[0] == nil", .t),
    refRow("nothing[FIRST] == nil", .t),
    refRow("nothing[SIZE] == nil", .t),
    refRow("name[0] == 'A'", .err(.typeMismatch)),
    refRow("name[SIZE] == 5", .err(.typeMismatch)),
    refRow("a[0] == 1", .err(.typeMismatch)),
    refRow("tags[1.0] == 'green'", .err(.typeMismatch)),
    refRow("tags['x'] == nil", .err(.typeMismatch)),
    refRow("tags[nothing] == nil", .err(.typeMismatch)),
    refRow("dict[FIRST] == 1", .err(.typeMismatch)),
    refRow("{10, 20}[1] == 20", .t),
    refRow("SELF['a'] == 1", .t),
    refRow("items[1].name == 'ink'", .t),
    refRow("nested['y']['z'] == 'deep'", .t),
    refRow("tags[a] == 'green'", .t),
  ]

  @Test(arguments: index) func indexRules(_ r: RefRow) { #expect(refOutcome(of: r) == r.expected) }

  // MARK: Arithmetic and bitwise

  static let arithmetic: [RefRow] = [
    refRow("1 + 2 == 3", .t),
    refRow("a + b == 3.5", .t),
    refRow("7 / 2 == 3.5", .t),
    refRow("6 / 2 == 3", .t),
    refRow("7 / 2 == 3", .f),
    refRow("big + 1 == 9223372036854775808.0", .t),
    refRow("big + 1 > big", .t),
    refRow("big * 2 == 18446744073709551614.0", .t),
    refRow("small - 1 < small", .f),
    refRow("small - 1 == -9223372036854775809.0", .t),
    refRow("-small > 0", .t),
    refRow("small / -1 == 9223372036854775808.0", .t),
    refRow("-neg == 7", .t),
    refRow("-b == -2.5", .t),
    refRow("- 2 + 3 == 1", .t),
    refRow("2 ** 3 == 8", .t),
    refRow("2 ** 0.5 > 1.41", .t),
    refRow("2 ** 3 ** 2 == 64", .t),
    refRow("1 / 0 == 1", .err(.divisionByZero)),
    refRow("1.0 / 0 == 1", .err(.divisionByZero)),
    refRow("1 / 0.0 == 1", .err(.divisionByZero)),
    refRow("modulus:by:(7, 0) == 0", .err(.divisionByZero)),
    refRow("modulus:by:(7.5, 0.0) == 0", .err(.divisionByZero)),
    refRow("modulus:by:(-7, 3) == -1", .t),
    refRow("modulus:by:(7, -3) == 1", .t),
    refRow("modulus:by:(7.5, 2) == 1.5", .t),
    refRow("modulus:by:(small, -1) == 0", .t),
    refRow("a + 'x' == 1", .err(.typeMismatch)),
    refRow("a + nothing == 1", .err(.typeMismatch)),
    refRow("nothing * 2 == nil", .err(.typeMismatch)),
    refRow("when + 1 == 1", .err(.typeMismatch)),
    refRow("nums + 1 == 1", .err(.typeMismatch)),
    refRow("-name == 1", .err(.typeMismatch)),
    refRow("flag + flag == 2", .t),
    refRow("-flag == -1", .t),
    refRow("(2 + 3) * 4 == 20", .t),
    refRow("2 + 3 * 4 == 14", .t),
    refRow("10 - 2 - 3 == 5", .t),
    refRow("nested.x * 2 == 20", .t),
    refRow("6 & 3 == 2", .t),
    refRow("6 | 3 == 7", .t),
    refRow("6 ^ 3 == 5", .t),
    refRow("1 << 3 == 8", .t),
    refRow("16 >> 2 == 4", .t),
    refRow("~0 == -1", .t),
    refRow("~a == -2", .t),
    refRow("1 << 64 == 0", .t),
    refRow("1 << 63 == small", .t),
    refRow("-8 >> 70 == -1", .t),
    refRow("8 >> 64 == 0", .t),
    refRow("1 << -1 == 0", .t),
    refRow("6.0 & 3 == 2", .t),
    refRow("6.5 & 3 == 2", .err(.typeMismatch)),
    refRow("flag | 2 == 3", .t),
    refRow("'a' & 1 == 0", .err(.typeMismatch)),
    refRow("nothing | 1 == 1", .err(.typeMismatch)),
    refRow("~b == 1", .err(.typeMismatch)),
    refRow("bitwiseAnd:with:(12, 10) == 8", .t),
    refRow("bitwiseOr:with:(4, 1) == 5", .t),
    refRow("bitwiseXor:with:(5, 1) == 4", .t),
    refRow("leftshift:by:(1, 2) == 4", .t),
    refRow("rightshift:by:(-16, 2) == -4", .t),
    refRow("onesComplement:(5) == -6", .t),
  ]

  @Test(arguments: arithmetic) func arithmeticRules(_ r: RefRow) { #expect(refOutcome(of: r) == r.expected) }

  // MARK: Functions

  static let functions: [RefRow] = [
    refRow("sum:(nums) == 10", .t),
    refRow("sum(nums) == 10", .t),
    refRow("count(nums) == 4", .t),
    refRow("count(mixed) == 4", .t),
    refRow("min(nums) == 1", .t),
    refRow("max(nums) == 4", .t),
    refRow("average(nums) == 2.5", .t),
    refRow("median(nums) == 2.5", .t),
    refRow("median({3, 1, 2}) == 2", .t),
    refRow("mode({1, 2, 2, 3, 3}) == {2, 3}", .t),
    refRow("mode({1, 2, 1.0}) == {1}", .t),
    refRow("stddev({2, 4, 4, 4, 5, 5, 7, 9}) == 2", .t),
    refRow("stddev({5}) == 0", .t),
    refRow("sum({}) == 0", .t),
    refRow("count({}) == 0", .t),
    refRow("mode({}) == {}", .t),
    refRow("min({}) == nil", .t),
    refRow("max({}) == nil", .t),
    refRow("average({}) == nil", .t),
    refRow("median({}) == nil", .t),
    refRow("stddev({}) == nil", .t),
    refRow("sum({1, nil, 2}) == 3", .t),
    refRow("count({1, nil, 2}) == 3", .t),
    refRow("average({1, nil, 3}) == 2", .t),
    refRow("sum({1, 'a'}) == 1", .err(.typeMismatch)),
    refRow("sum(5) == 5", .err(.typeMismatch)),
    refRow("sum(nothing) == 0", .err(.typeMismatch)),
    refRow("max(strs) == 'c'", .err(.typeMismatch)),
    refRow("sqrt(16) == 4", .t),
    refRow("log(1000) == 3", .t),
    refRow("ln(1) == 0", .t),
    refRow("exp(0) == 1", .t),
    refRow("raise:toPower:(2, 10) == 1024", .t),
    refRow("floor(2.7) == 2", .t),
    refRow("ceiling(2.1) == 3", .t),
    refRow("trunc(-2.7) == -2", .t),
    refRow("floor(5) == 5", .t),
    refRow("abs(-3) == 3", .t),
    refRow("abs(-2.5) == 2.5", .t),
    refRow("abs(small) > 0", .t),
    refRow("sqrt('x') == 1", .err(.typeMismatch)),
    refRow("sqrt(nothing) == 1", .err(.typeMismatch)),
    refRow("floor(nil) == 1", .err(.typeMismatch)),
    refRow("uppercase(name) == 'ALICE'", .t),
    refRow("lowercase(upper) == 'alice'", .t),
    refRow("uppercase(word) == 'STRASSE'", .t),
    refRow("uppercase(nothing) == nil", .t),
    refRow("lowercase(nothing) == nil", .t),
    refRow("uppercase(a) == '1'", .err(.typeMismatch)),
    refRow("length(name) == 5", .t),
    refRow("length(emoji) == 2", .t),
    refRow("length(a) == 1", .err(.typeMismatch)),
    refRow("length(nothing) == nil", .t),
    refRow("noindex(a) == 1", .t),
    refRow("add:to:(1, 2) == 3", .t),
    refRow("from:subtract:(5, 3) == 2", .t),
    refRow("multiply:by:(4, 2.5) == 10", .t),
    refRow("divide:by:(9, 3) == 3", .t),
    refRow("divide:by:(1, 0) == 1", .err(.divisionByZero)),
    refRow("random() >= 0 AND random() < 1", .t),
    refRow("randomn(10) < 10", .t),
    refRow("random(nums) IN nums", .t),
    refRow("now() > CAST(0, 'NSDate')", .t),
  ]

  @Test(arguments: functions) func functionRules(_ r: RefRow) { #expect(refOutcome(of: r) == r.expected) }

  // MARK: SUBQUERY, TERNARY, CAST

  static let forms: [RefRow] = [
    refRow("SUBQUERY(items, $i, $i.price > 2).@count == 1", .t),
    refRow("SUBQUERY(nums, $n, $n > 2) == {3, 4}", .t),
    refRow("SUBQUERY(nothing, $n, $n > 2) == {}", .t),
    refRow("SUBQUERY(name, $n, $n > 2) == {}", .err(.typeMismatch)),
    refRow("SUBQUERY(dict, $n, TRUEPREDICATE) == {}", .err(.typeMismatch)),
    refRow("SUBQUERY(tags, $t, $t BEGINSWITH 'g')[0] == 'green'", .t),
    refRow("SUBQUERY(nums, $n, $n > a).@count == 3", .t),
    refRow("SUBQUERY(grid, $g, SUBQUERY($g, $v, $v > 1).@count > 1).@count == 1", .t),
    refRow("SUBQUERY(nums, $n, $n > 2).@count == 2 AND $n == 1", .err(.unboundVariable)),
    refRow("SUBQUERY(nums, $n, $n > 2).@count == 2 AND $n == 7", .t, variables: ["n": 7]),
    refRow("SUBQUERY(mixed, $m, $m > 0).@count == 1", .err(.typeMismatch)),
    refRow("TERNARY(a == 1, 'yes', 'no') == 'yes'", .t),
    refRow("TERNARY(a == 2, 'yes', 'no') == 'no'", .t),
    refRow("TERNARY(a == 1, 1, 1 / 0) == 1", .t),
    refRow("TERNARY(a == 1, 1 / 0, 1) == 1", .err(.divisionByZero)),
    refRow("TERNARY(a < 'x', 1, 2) == 1", .err(.typeMismatch)),
    refRow("CAST('3', 'NSNumber') == 3", .t),
    refRow("CAST('3.5', 'NSNumber') == 3.5", .t),
    refRow("CAST('-2', 'NSDecimalNumber') == -2", .t),
    refRow("CAST('1e3', 'NSNumber') == 1000", .t),
    refRow("CAST('abc', 'NSNumber') == 1", .err(.invalidArgument)),
    refRow("CAST('', 'NSNumber') == 1", .err(.invalidArgument)),
    refRow("CAST(' 3', 'NSNumber') == 3", .err(.invalidArgument)),
    refRow("CAST(3, 'NSNumber') == 3", .t),
    refRow("CAST(when, 'NSNumber') == 100", .t),
    refRow("CAST(a, 'NSString') == '1'", .t),
    refRow("CAST(b, 'NSString') == '2.5'", .t),
    refRow("CAST(2.0, 'NSString') == '2'", .t),
    refRow("CAST(flag, 'NSString') == '1'", .t),
    refRow("CAST(name, 'NSString') == 'Alice'", .t),
    refRow("CAST(100, 'NSDate') == when", .t),
    refRow("CAST(when, 'NSDate') == when", .t),
    refRow("CAST(nothing, 'NSNumber') == nil", .t),
    refRow("CAST(nil, 'NSDate') == nil", .t),
    refRow("CAST(nil, 'NSString') == nil", .t),
    refRow("CAST(tags, 'NSNumber') == 1", .err(.invalidArgument)),
    refRow("CAST(when, 'NSString') == 'x'", .err(.invalidArgument)),
    refRow("CAST('x', 'NSDate') == nil", .err(.invalidArgument)),
    refRow("CAST(1, 'NSArray') == 1", .err(.invalidArgument)),
    refRow("CAST(nil, 'Foo') == nil", .err(.invalidArgument)),
  ]

  @Test(arguments: forms) func specialForms(_ r: RefRow) { #expect(refOutcome(of: r) == r.expected) }

  // MARK: Variables, short-circuit, format arguments

  static let variables: [RefRow] = [
    refRow("$x == 1", .t, variables: ["x": 1]),
    refRow("$missing == 1", .err(.unboundVariable)),
    refRow("$x := 5 == 5", .t),
    refRow("($x := a + 1) == 2 AND $x == 2", .t),
    refRow("$x == 2 AND ($x := 2) == 2", .err(.unboundVariable)),
    refRow("($x := 3) == 3 AND $x == 3", .t, variables: ["x": 1]),
    refRow("ANY nums == $v", .t, variables: ["v": 3]),
    refRow("nums[$i] == 2", .t, variables: ["i": 1]),
    refRow("a BETWEEN {$lo, $hi}", .t, variables: ["lo": 0, "hi": 1]),
    refRow("FALSEPREDICATE AND $nope == 1", .f),
    refRow("TRUEPREDICATE OR $nope == 1", .t),
    refRow("$nope == 1 OR TRUEPREDICATE", .err(.unboundVariable)),
    refRow("TRUEPREDICATE AND FALSEPREDICATE", .f),
    refRow("NOT FALSEPREDICATE", .t),
    refRow("a == 1 AND b == 2.5", .t),
    refRow("a == 2 OR b == 2.5", .t),
    refRow("FALSEPREDICATE AND a < 'x'", .f),
    refRow("TRUEPREDICATE OR a < 'x'", .t),
    refRow("a < 'x' OR TRUEPREDICATE", .err(.typeMismatch)),
    refRow("NOT (a < 'x')", .err(.typeMismatch)),
    refRow("FALSEPREDICATE AND 1 / 0 == 1", .f),
    refRow("a == %@", .t, args: [1]),
    refRow("name == %@", .t, args: ["Alice"]),
    refRow("%K == 1", .t, args: ["a"]),
    refRow("%K == 10", .t, args: ["nested.x"]),
    refRow("a IN %@", .t, args: [[1, 2]]),
    refRow("'%@' == %@", .t, args: ["%@"]),
    refRow("a == %d", .t, args: [1]),
    refRow("b == %f", .t, args: [2.5]),
    refRow("tags == %@", .t, args: [["red", "green", "blue"]]),
    refRow("%K == nil", .t, args: ["nothing"]),
    refRow("%@ == nil", .t, args: [nil]),
  ]

  @Test(arguments: variables) func variablesAndLogic(_ r: RefRow) { #expect(refOutcome(of: r) == r.expected) }

  // MARK: FUNCTION

  struct Boom: Error {}

  static var registered: [String: ([SiftValue]) throws -> SiftValue] {
    [
      "shout": { args in
        guard case .string(let s) = args[0] else { return .null }
        return .string(s.uppercased() + "!")
      },
      "add": { args in
        var total = 0
        for case .int(let i) in args { total += i }
        return .int(total)
      },
      "fail": { _ in throw EvaluationError(.invalidArgument, "no") },
      "boom": { _ in throw Boom() },
    ]
  }

  static let custom: [RefRow] = [
    refRow("FUNCTION(name, 'shout') == 'ALICE!'", .t),
    refRow("FUNCTION(a, 'add', 2, 3) == 6", .t),
    refRow("FUNCTION(a, 'nope') == 1", .err(.unknownFunction)),
    refRow("FALSEPREDICATE AND FUNCTION(a, 'nope') == 1", .f),
    refRow("FUNCTION(a, 'fail') == 1", .err(.invalidArgument)),
    refRow("FUNCTION(a, 'boom') == 1", .err(.invalidArgument)),
    refRow("FUNCTION(a, %@) == 1", .t, args: ["add"]),
  ]

  @Test(arguments: custom) func registeredFunctions(_ r: RefRow) {
    #expect(refOutcome(of: r, functions: Self.registered) == r.expected)
  }

  // MARK: API behaviour

  @Test func errorRangesPointAtTheFailingNode() throws {
    let cases: [(String, EvaluationError.Kind, Int, Int)] = [
      ("a + 'x' == 1", .typeMismatch, 0, 7),
      ("name < 5", .typeMismatch, 0, 8),
      ("$v == 1", .unboundVariable, 0, 2),
      ("tags[7] == nil", .indexOutOfRange, 0, 7),
      ("a == 1 AND nums.@sum == 1", .invalidArgument, 11, 20),
      ("name MATCHES '('", .regex, 0, 16),
      ("ANY a == 1", .typeMismatch, 0, 10),
    ]
    for (format, kind, start, end) in cases {
      var evaluator = ReferenceEvaluator()
      let predicate = try PredicateSyntax(parsing: format)
      do {
        _ = try evaluator.evaluate(predicate, object: RefFixtures.record)
        Issue.record("\(format) did not throw")
      } catch {
        #expect(error.kind == kind, "\(format)")
        #expect(error.range == SourceRange(start: start, end: end), "\(format)")
      }
    }
  }

  @Test func assignmentsDoNotOutliveAnEvaluation() throws {
    var evaluator = ReferenceEvaluator(variables: ["x": 1])
    let assign = try PredicateSyntax(parsing: "($x := 9) == 9")
    #expect(try evaluator.evaluate(assign, object: nil))
    #expect(evaluator.variables == ["x": 1])
    let read = try PredicateSyntax(parsing: "$x == 1")
    #expect(try evaluator.evaluate(read, object: nil))
  }

  @Test func valueOfExpressions() throws {
    var evaluator = ReferenceEvaluator()
    func value(_ text: String) throws -> SiftValue {
      let p = try PredicateSyntax(parsing: "\(text) == 0")
      guard case .comparison(let c) = p.kind else { return .null }
      return try evaluator.value(of: c.lhs, object: RefFixtures.record)
    }
    #expect(try value("6 / 2") == .int(3))
    #expect(try value("7 / 2") == .double(3.5))
    #expect(try value("big + 1") == .double(9_223_372_036_854_775_808))
    #expect(try value("-small") == .double(9_223_372_036_854_775_808))
    #expect(try value("abs(small)") == .double(9_223_372_036_854_775_808))
    #expect(try value("2 ** 2") == .double(4))
    #expect(try value("-flag") == .int(-1))
    #expect(try value("floor(5)") == .int(5))
    #expect(try value("floor(5.5)") == .double(5))
    #expect(try value("sum({1, 2})") == .int(3))
    #expect(try value("sum({1, 2.0})") == .double(3))
    #expect(try value("average({1, 2})") == .double(1.5))
    #expect(try value("median({1, 2, 3})") == .double(2))
    #expect(try value("max({1, 2.5, 2})") == .double(2.5))
    #expect(try value("max({YES, NO})") == .bool(true))
    #expect(try value("mode({3, 1, 3, 1, 2})") == [3, 1])
    #expect(try value("nums.@max.self") == .int(4))
    #expect(try value("nums.@avg.self") == .double(2.5))
    #expect(try value("CAST('7', 'NSNumber')") == .int(7))
    #expect(try value("CAST('7.0', 'NSNumber')") == .double(7))
    #expect(try value("CAST(when, 'NSNumber')") == .double(100))
    #expect(try value("CAST(5, 'NSDate')") == .date(secondsSinceReferenceDate: 5))
    #expect(try value("uppercase(istanbul)") == "İSTANBUL")
    #expect(try value("lowercase(istanbul)") == "i\u{307}stanbul")
    #expect(try value("grid.@distinctUnionOfArrays") == [1, 2, 3, 4])
    #expect(try value("dups.@distinctUnionOfObjects.self") == [1, 2, 3])
    #expect(try value("items.@unionOfObjects.price") == [2, 3.5])
    #expect(try value("nums[LAST]") == 4)
    #expect(try value("$y := 4") == 4)
  }

  @Test func objectsMayBeAnyValue() throws {
    var evaluator = ReferenceEvaluator()
    let cases: [(String, SiftValue, Bool)] = [
      ("SELF == 3", 3, true),
      ("SELF BEGINSWITH 'a'", "abc", true),
      ("SELF.length == 3", "abc", true),
      ("SELF[1] == 2", [1, 2], true),
      ("SELF == nil", nil, true),
      ("x == nil", nil, true),
      ("SELF > CAST(0, 'NSDate')", .date(secondsSinceReferenceDate: 1), true),
      ("ANY SELF == 2", [1, 2], true),
    ]
    for (format, object, expected) in cases {
      let p = try PredicateSyntax(parsing: format)
      #expect(try evaluator.evaluate(p, object: object) == expected, "\(format)")
    }
  }
}
