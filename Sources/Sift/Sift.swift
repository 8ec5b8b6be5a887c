// The engine module re-exports the syntax layer, so `import Sift` is all a user needs.
@_exported import SiftSyntax
