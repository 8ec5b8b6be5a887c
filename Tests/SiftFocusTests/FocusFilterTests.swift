import Foundation
import Synchronization
import Testing

@testable import SiftFocus

private let enUS = Locale(identifier: "en_US")

@Suite struct FocusFilterTests {
  @Test func staticMetadata() {
    #expect(ExampleChatAppFocusFilter.title == "Set account, status & look")
    #expect(ExampleChatAppFocusFilter.description?.hasPrefix("Select an account") == true)
    #expect(CurrentProbeFilter.description == nil)
  }

  @Test func parametersAreEnumeratedInDeclarationOrder() {
    let parameters = ExampleChatAppFocusFilter.parameters
    #expect(parameters.map(\.key) == ["alwaysUseDarkMode", "status", "account", "layout"])
    #expect(parameters.map(\.title) == ["Use Dark Mode", "Status Message", "Selected Account", "Layout"])
    #expect(parameters.map(\.isOptional) == [false, true, true, true])
    #expect(parameters.map(\.kind) == [.bool, .string, .entity, .enumCase])
    #expect(parameters.allSatisfy { !$0.isSet })
  }

  @Test func defaultsBeforeAnythingIsSet() {
    let filter = ExampleChatAppFocusFilter()
    #expect(filter.alwaysUseDarkMode == false)
    #expect(filter.status == nil)
    #expect(filter.account == nil)
    #expect(filter.parameterValues.isEmpty)
    #expect(filter.$alwaysUseDarkMode.title == "Use Dark Mode")
    #expect(!filter.$alwaysUseDarkMode.isOptional)
    #expect(filter.$status.isOptional)
  }

  @Test func displayRepresentationWithEverythingSet() async throws {
    let filter = try await ExampleChatAppFocusFilter(parameterValues: [
      "alwaysUseDarkMode": .bool(true), "status": .string("In a meeting"),
      "account": .entity("work-account-identifier"),
    ])
    let representation = filter.displayRepresentation(locale: enUS)
    #expect(representation.title == "Set Account, Status, and Look")
    // Foundation's standard "and" list, as the talk's `formatted()`: with the serial comma.
    #expect(representation.subtitle == "Work, In a meeting, and Dark")
  }

  @Test func displayRepresentationWithOnlyTheLook() {
    let representation = ExampleChatAppFocusFilter().displayRepresentation(locale: enUS)
    #expect(representation == DisplayRepresentation(title: "Set Look", subtitle: "Dynamic"))
  }

  @Test func displayRepresentationWithTwoItems() {
    let representation = DisplayRepresentation.summary(
      of: [("Status", "Lunch"), ("Look", "Dark")], locale: enUS)
    #expect(representation == DisplayRepresentation(title: "Set Status and Look", subtitle: "Lunch and Dark"))
    #expect(DisplayRepresentation.summary(of: [], locale: enUS) == nil)
  }

  @Test func applyingResolvesEntitiesThroughTheQuery() async throws {
    let filter = try await ExampleChatAppFocusFilter(parameterValues: [
      "account": .entity("personal-account-identifier"), "layout": .enumCase("roomy"),
    ])
    #expect(filter.account == .personal)
    #expect(filter.layout == .roomy)
    #expect(filter.alwaysUseDarkMode == false)
    #expect(filter.parameters.filter(\.isSet).map(\.key) == ["account", "layout"])
    #expect(
      filter.parameterValues == ["account": .entity("personal-account-identifier"), "layout": .enumCase("roomy")])
  }

  @Test func applyingLeavesTheOriginalUnchanged() async throws {
    let first = try await ExampleChatAppFocusFilter(parameterValues: ["status": .string("Busy")])
    let second = try await first.applying(["alwaysUseDarkMode": .bool(true)])
    #expect(first.alwaysUseDarkMode == false)
    #expect(second.alwaysUseDarkMode == true)
    #expect(second.status == "Busy")
  }

  @Test func settingAValueKeepsCopiesIndependent() {
    var filter = ExampleChatAppFocusFilter()
    let copy = filter
    filter.status = "Away"
    #expect(filter.status == "Away")
    #expect(filter.$status.isSet)
    #expect(copy.status == nil)
    #expect(!copy.$status.isSet)
  }

  @Test func unknownKeyIsRejected() async {
    await #expect(
      throws: FocusParameterError(filter: ExampleChatAppFocusFilter.registryKey, key: "mood", reason: .unknownParameter)
    ) {
      try await ExampleChatAppFocusFilter(parameterValues: ["mood": .string("happy")])
    }
  }

  @Test func wrongTypeIsRejected() async throws {
    let error = await #expect(throws: FocusParameterError.self) {
      try await ExampleChatAppFocusFilter(parameterValues: ["alwaysUseDarkMode": .string("yes")])
    }
    #expect(error?.key == "alwaysUseDarkMode")
    #expect(error?.reason == .typeMismatch(expected: .bool, actual: .string))
    #expect(error?.description.hasSuffix("alwaysUseDarkMode: expected a bool value, got string") == true)
  }

  @Test func unknownEntityAndEnumCaseAreRejected() async {
    let entity = await #expect(throws: FocusParameterError.self) {
      try await ExampleChatAppFocusFilter(parameterValues: ["account": .entity("gone")])
    }
    #expect(entity?.reason == .entityNotFound(identifier: "gone"))
    let enumCase = await #expect(throws: FocusParameterError.self) {
      try await ExampleChatAppFocusFilter(parameterValues: ["layout": .enumCase("huge")])
    }
    #expect(enumCase?.reason == .unknownEnumCase(rawValue: "huge"))
  }

  @Test func performReceivesTheFilledValues() async throws {
    var filter = try await ExampleChatAppFocusFilter(parameterValues: [
      "alwaysUseDarkMode": .bool(true), "account": .entity("work-account-identifier"),
    ])
    filter.tag = "perform"
    try await filter.perform()
    let entry = await PerformLog.shared.entries["perform"]
    #expect(entry == PerformLog.Entry(alwaysUseDarkMode: true, status: nil, account: .work))
  }

  @Test func appContextAllowsOnlyTheSelectedAccount() async throws {
    let filter = try await ExampleChatAppFocusFilter(parameterValues: ["account": .entity("work-account-identifier")])
    let predicate = try #require(filter.appContext.notificationFilterPredicate)
    #expect(predicate.description.contains("SELF IN"))
    #expect(predicate.matches("work-account-identifier"))
    #expect(!predicate.matches("personal-account-identifier"))
    #expect(filter.appContext.targetContentIdentifierPrefix == nil)
    #expect(ExampleChatAppFocusFilter().appContext.notificationFilterPredicate == nil)
  }

  @Test func suggestionsDefaultToNone() async {
    #expect(
      await ExampleChatAppFocusFilter.suggestedFocusFilters(for: FocusSuggestionContext(focusName: "Work")).isEmpty)
  }

  @Test func currentThrowsBeforeAnyThenReturnsTheLastApplied() async throws {
    await #expect(throws: FocusFilterError.noCurrentConfiguration(filter: CurrentProbeFilter.registryKey)) {
      try await CurrentProbeFilter.current
    }
    try await CurrentProbeFilter(parameterValues: ["level": .int(1)]).activate()
    try await CurrentProbeFilter(parameterValues: ["level": .int(2), "ratio": .double(0.25)]).activate()
    let current = try await CurrentProbeFilter.current
    #expect(current.level == 2)
    #expect(current.ratio == 0.25)
    FocusFilterRegistry.shared.clearApplied(CurrentProbeFilter.self)
    await #expect(throws: FocusFilterError.self) { try await CurrentProbeFilter.current }
  }

  @Test func invalidationReachesTheRegisteredHandlerOnly() {
    // A no-op before a system registers a handler.
    CurrentProbeFilter.invalidateFocusFilterAppContext()
    let seen = Mutex<[String]>([])
    FocusFilterRegistry.shared.setInvalidationHandler { key in seen.withLock { $0.append(key) } }
    ExampleChatAppFocusFilter.invalidateFocusFilterAppContext()
    FocusFilterRegistry.shared.setInvalidationHandler(nil)
    ExampleChatAppFocusFilter.invalidateFocusFilterAppContext()
    #expect(seen.withLock { $0 } == [ExampleChatAppFocusFilter.registryKey])
  }

  @Test func savedValuesRoundTripThroughJSON() throws {
    let values: [String: FocusParameterValue] = [
      "a": .bool(true), "b": .string("x"), "c": .int(1), "d": .double(1), "e": .entity("id"), "f": .enumCase("roomy"),
    ]
    let data = try JSONEncoder().encode(values)
    #expect(try JSONDecoder().decode([String: FocusParameterValue].self, from: data) == values)
  }
}
