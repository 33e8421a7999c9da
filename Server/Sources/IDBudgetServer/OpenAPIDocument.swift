enum OpenAPIDocument {
    static let json = "{}"
}
