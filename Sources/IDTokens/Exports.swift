// The generator's API speaks in alphabets and formats (IDFormats): re-exported so that
// `import IDTokens` is all a package depending on the IDTokens product needs.
@_exported import IDFormats
