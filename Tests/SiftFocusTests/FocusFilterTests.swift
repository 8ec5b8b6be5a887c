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

  /// Outside any app's scope the static calls have no system to reach: an error, not a
  /// guess at some other user's system; invalidation is a no-op.
  @Test func staticCallsOutsideAScopeAreErrors() async throws {
    await #expect(throws: FocusFilterError.notRegistered(filter: CurrentProbeFilter.registryKey)) {
      try await CurrentProbeFilter.current
    }
    await #expect(throws: FocusFilterError.notRegistered(filter: CurrentProbeFilter.registryKey)) {
      try await CurrentProbeFilter.setBadgeCount(1)
    }
    CurrentProbeFilter.invalidateFocusFilterAppContext()
  }

  /// `current` is the filter in force, or the defaults when no Focus is active.
  @Test func currentIsTheFilterInForceOrTheDefaults() async throws {
    let system = FocusSystem()
    try await system.register(CurrentProbeFilter.self, app: "probe")
    #expect(try await system.withApp("probe") { try await CurrentProbeFilter.current.level } == 0)
    try await system.save(try await CurrentProbeFilter(parameterValues: ["level": .int(2)]), for: "probe", in: "Work")
    try await system.activate("Work")
    // Saved values that are not yet in force do not show through `current`.
    try await system.save(try await CurrentProbeFilter(parameterValues: ["level": .int(3)]), for: "probe", in: "Work")
    let current = try await system.withApp("probe") { try await CurrentProbeFilter.current }
    #expect(current.level == 2 && current.ratio == 0.5)
    try await system.activate(nil)
    #expect(try await system.withApp("probe") { try await CurrentProbeFilter.current.level } == 0)
    // Asking for another filter type than the app registered is an error.
    await #expect(throws: FocusFilterError.self) {
      try await system.withApp("probe") { try await ExampleChatAppFocusFilter.current }
    }
  }

  @Test func savedValuesRoundTripThroughJSON() throws {
    let values: [String: FocusParameterValue] = [
      "a": .bool(true), "b": .string("x"), "c": .int(1), "d": .double(1), "e": .entity("id"), "f": .enumCase("roomy"),
    ]
    let data = try JSONEncoder().encode(values)
    #expect(try JSONDecoder().decode([String: FocusParameterValue].self, from: data) == values)
  }
}
