// Generated with Python cryptography (OpenSSL ChaCha20), key 00..1f, nonce 000000090000004a00000000, counter 1.
enum ChaCha20Vectors {
    static let block2 =
        "0a88837739d7bf4ef8ccacb0ea2bb9d69d56c394aa351dfda5bf459f0a2e9fe8e721f89255f9c486bf21679c683d4f9c5cf2fa27865526005b06ca374c86af3b"
    static let block8 =
        "4304f78488f1160008e9185df3a6223d70c0dbaf47227642d3314e700f00671a88a5b49dd07ee942e2fd83def98adfdbee474e11f01915cac66e0f9ae924ad94"
}
