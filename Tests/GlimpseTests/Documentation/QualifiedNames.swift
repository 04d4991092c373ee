import Glimpse

// Compiled, not run: module-qualified names resolve with `import Glimpse` alone, because no
// type in the module is named `Glimpse` (the README's code blocks are compiled, as written, by
// `DocumentationCodeBlockTests`).
enum QualifiedNames {
    /// `Glimpse.Image` names the image type: no namespace shadows the module.
    static func qualified(_ image: Glimpse.Image) -> Glimpse.ImageFormat { image.format }
}
