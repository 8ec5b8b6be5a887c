import Foundation
import Testing

@testable import Sift

/// Typed Swift values (`SiftTyped`): field tables, predicates compiled for a type, the
/// compile-time checks, and the same answers as the value tree on every input.
@Suite("Typed values")
struct TypedInputTests {
  enum Status: String, SiftFieldValue {
    case active, away
  }

  struct Address: SiftTyped, Equatable {
    var city: String
    var zip: Int?
    var geo: Geo

    static let siftFields = SiftFields<Address>()
      .field("city", \.city)
      .field("zip", \.zip)
      .field("geo", \.geo)
  }

  struct Geo: SiftTyped, Equatable {
    var lat: Double
    var label: String

    static let siftFields = SiftFields<Geo>().field("lat", \.lat).field("label", \.label)
  }

  struct Person: SiftTyped {
    var name: String
    var age: Int
    var score: Double
    var active: Bool
    var born: Date
    var nick: String?
    var rank: Int?
    var tags: [String]
    var nums: [Int]
    var address: Address
    var previous: Address?
    var friends: [Address]
    var status: Status
    var extra: SiftValue
    var small: Int32
    var ratio: Float
    var labels: Set<String>

    static let siftFields = SiftFields<Person>()
      .field("name", \.name)
      .field("age", \.age)
      .field("score", \.score)
      .field("active", \.active)
      .field("born", \.born)
      .field("nick", \.nick)
      .field("rank", \.rank)
      .field("tags", \.tags)
      .field("nums", \.nums)
      .field("address", \.address)
      .field("previous", \.previous)
      .field("friends", \.friends)
      .field("status", \.status)
      .field("extra", \.extra)
      .field("small", \.small)
      .field("ratio", \.ratio)
      .field("labels", \.labels)
      .field("initial") { String($0.name.prefix(1)) }
      .field("loud") { $0.tags.map { $0.uppercased() } }
  }

  /// A class: no field is stored in place, every read goes through its key path.
  final class Account: SiftTyped {
    let id: String
    let balance: Int
    let owner: Address

    init(id: String, balance: Int, owner: Address) {
      self.id = id
      self.balance = balance
      self.owner = owner
    }

    static let siftFields = SiftFields<Account>().field("id", \.id).field("balance", \.balance).field("owner", \.owner)
  }

  static let home = Address(city: "Zürich", zip: 8001, geo: Geo(lat: 47.37, label: "ZH"))
  static let ada = Person(
    name: "Ada", age: 36, score: 4.5, active: true, born: Date(timeIntervalSinceReferenceDate: 100), nick: nil,
    rank: 3, tags: ["math", "urgent", "Résumé"], nums: [1, 2, 3], address: home, previous: nil,
    friends: [Address(city: "Bern", zip: nil, geo: Geo(lat: 46.9, label: "BE"))], status: .active,
    extra: ["k": "v"], small: 7, ratio: 0.5, labels: ["x"])

  static let predicates = [
    "name == 'Ada'", "name BEGINSWITH[c] 'a'", "name IN {'Bob', 'Ada'}", "name LIKE 'A?a'", "name MATCHES 'A.*'",
    "age >= 30", "age < 30", "age BETWEEN {30, 40}", "age == 36.0", "score > 4", "active == YES",
    "born > CAST(50, 'NSDate')", "nick == nil", "nick BEGINSWITH 'a'", "rank == 3", "rank > 5",
    "ANY tags == 'urgent'", "ALL tags CONTAINS 'a'", "ANY tags BEGINSWITH[cd] 'resume'", "'math' IN tags",
    "tags CONTAINS 'math'", "tags.@count == 3", "nums.@sum == 6", "ANY nums > 2", "address.city == 'Zürich'",
    "address.zip == 8001", "address.geo.lat > 47", "address.geo.label ==[c] 'zh'", "address.city CONTAINS[d] 'zu'",
    "previous == nil", "previous.city == 'x'", "ANY friends.city == 'Bern'", "friends[0].zip == nil",
    "status == 'active'", "extra.k == 'v'", "small == 7", "ratio == 0.5", "ANY labels == 'x'", "initial == 'A'",
    "ANY loud == 'URGENT'", "SELF.name == 'Ada'", "address.@count == 3",
    "SUBQUERY(tags, $t, $t BEGINSWITH 'u').@count == 1", "name.length == 3", "age + 1 == 37",
    "name == 'Ada' AND (age > 40 OR ANY tags == 'urgent') AND NOT active == NO", "address.geo == nil",
  ]

  @Test(arguments: predicates)
  func typedAgreesWithTheValueTree(_ format: String) throws {
    let typed = try SiftPredicate(format: format, for: Person.self)
    let plain = try SiftPredicate(format: format)
    let value = Self.ada.siftValue
    let expected = Result { () throws(EvaluationError) in try plain.evaluate(with: value) }
    let actual = Result { () throws(EvaluationError) in try typed.evaluate(with: Self.ada) }
    #expect("\(expected)" == "\(actual)", "\(format)")
    #expect(typed.matches(Self.ada) == plain.matches(value))
    // An untyped predicate evaluates a typed value through its dictionary.
    #expect("\(Result { () throws(EvaluationError) in try plain.evaluate(with: Self.ada) })" == "\(expected)")
  }

  @Test func classesAreReadThroughTheirKeyPaths() throws {
    let account = Account(id: "acct-1", balance: 20, owner: Self.home)
    for (format, expected) in [
      ("id == 'acct-1' AND balance > 10", true), ("owner.city == 'Zürich'", true), ("owner.geo.lat < 0", false),
    ] {
      #expect(try SiftPredicate(format: format, for: Account.self).evaluate(with: account) == expected, "\(format)")
    }
  }

  /// A key that is not a field, and a comparison no value of the field can take, are
  /// compile errors with the range of the offending part, like syntax errors.
  @Test(
    arguments: [
      ("agee > 3", "'agee' is not a field of Person", 0..<4),
      ("address.town == 'x'", "'town' is not a field of 'address' in Person", 0..<12),
      ("address.geo.x > 1", "'x' is not a field of 'address.geo' in Person", 0..<13),
      ("age BEGINSWITH 'a'", "BEGINSWITH cannot apply to 'age' (Int in Person)", 0..<18),
      ("name == 'x' AND age LIKE 'a*'", "LIKE cannot apply to 'age'", 16..<29),
      ("ANY name == 'x'", "ANY needs a collection, and 'name' (String in Person) is not one", 0..<15),
      ("ANY nums BEGINSWITH 'a'", "BEGINSWITH cannot apply to 'nums' ([Int] in Person)", 0..<23),
      ("age == 'thirty'", "'age' (Int in Person) is never equal to a string", 0..<15),
      ("name != 3", "is never equal to a number: this comparison is always true", 0..<9),
      ("address.geo.lat MATCHES 'x'", "MATCHES cannot apply to 'address.geo.lat' (Double in Person)", 0..<27),
      ("age IN 'abc'", "IN cannot apply to 'age'", 0..<12),
    ] as [(String, String?, Range<Int>)])
  func compileErrors(_ format: String, _ message: String?, _ range: Range<Int>) {
    do {
      _ = try SiftPredicate(format: format, for: Person.self)
      Issue.record("\(format) compiled")
    } catch {
      if let message { #expect(error.error.message.contains(message), "\(error.error.message)") }
      #expect(error.error.range.start == range.lowerBound && error.error.range.end == range.upperBound, "\(error)")
    }
  }

  /// What the check must not reject: comparisons that can succeed for some value.
  @Test(arguments: [
    "nick BEGINSWITH 'a'", "rank == 'x' OR rank == nil", "extra BEGINSWITH 'a'", "ANY previous.city == 'x'",
    "age == nil", "'a' IN name", "tags == {'a'}", "address.zip > 'a' OR TRUEPREDICATE", "age < 3.5",
    "active == 1", "score IN {1, 2.5}", "ANY tags IN {'a', 'b'}",
  ])
  func comparisonsThatCanSucceedCompile(_ format: String) throws {
    _ = try SiftPredicate(format: format, for: Person.self)
  }

  /// A predicate compiled for one type rejects a value of another, as a record schema
  /// does; an untyped predicate reads any typed value through its dictionary.
  @Test func aPredicateForOneTypeRejectsAnother() throws {
    struct Other: SiftTyped {
      var city: String
      static let siftFields = SiftFields<Other>().field("city", \.city)
    }
    let forAddress = try SiftPredicate(format: "city == 'Zürich'", for: Address.self)
    #expect(forAddress.matches(Self.home))
    #expect(!forAddress.matches(Other(city: "Zürich")))
    #expect(throws: EvaluationError.self) { try forAddress.evaluate(with: Other(city: "Zürich")) }
    #expect(try SiftPredicate(format: "city == 'Zürich'").matches(Other(city: "Zürich")))
  }

  @Test func substitutionVariablesKeepTheType() throws {
    let p = try SiftPredicate(format: "age > $min", for: Person.self).withSubstitutionVariables(["min": 30])
    #expect(p.matches(Self.ada))
    #expect(throws: PredicateSyntaxError.self) {
      _ = try SiftPredicate(format: "agee > $min", for: Person.self)
    }
  }

  /// The README's example type and the errors it shows.
  @Test func readmeExample() throws {
    struct Mail: SiftTyped, Codable {
      var sender: String
      var priority: Int
      var tags: [String]
      var thread: String?

      static let siftFields = SiftFields<Mail>()
        .field("sender", \.sender)
        .field("priority", \.priority)
        .field("tags", \.tags)
        .field("thread", \.thread)
    }
    let mail = Mail(sender: "a@b.c", priority: 4, tags: ["urgent"], thread: nil)
    let urgentMail = try SiftPredicate(format: "priority >= 3 AND ANY tags == 'urgent'", for: Mail.self)
    #expect(urgentMail.matches(mail))
    #expect(try SiftPredicate(format: "priority >= 3 AND ANY tags == 'urgent'").evaluate(with: mail))
    for (format, message, hint) in [
      ("prority >= 3", "'prority' is not a field of Mail", "the fields of Mail are sender, priority, tags, thread"),
      (
        "priority BEGINSWITH 'a'",
        "BEGINSWITH cannot apply to 'priority' (Int in Mail): BEGINSWITH needs strings, not a number",
        nil
      ),
    ] {
      do {
        _ = try SiftPredicate(format: format, for: Mail.self)
        Issue.record("\(format) compiled")
      } catch {
        #expect(error.error.message == message)
        if let hint { #expect(error.error.hint == hint) }
        #expect(error.error.range.start == 0)
      }
    }
  }

  @Test func errorsCarryTheRangeOfTheFailingPart() throws {
    let p = try SiftPredicate(format: "name == 'Ada' AND extra BEGINSWITH 'v'", for: Person.self)
    #expect(throws: EvaluationError.self) { try p.evaluate(with: Self.ada) }
    do {
      _ = try p.evaluate(with: Self.ada)
    } catch {
      #expect(error.kind == .typeMismatch)
      #expect(error.range.start == 18)
    }
  }
}
