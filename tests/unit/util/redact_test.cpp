#include "servebench/util/redact.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

using namespace servebench::util;

TEST(Redact, KeyFlagsInBothSpellings) {
  EXPECT_EQ(redact("sglang serve --api-key sk-123 --port 1"), "sglang serve --api-key <redacted> --port 1");
  EXPECT_EQ(redact("sglang serve --api-key=sk-123 --port 1"), "sglang serve --api-key=<redacted> --port 1");
  EXPECT_EQ(redact("x --admin-api-key   'a b' y"), "x --admin-api-key   '<redacted>' y");
  EXPECT_EQ(redact("x --admin-api-key=\"q\""), "x --admin-api-key=\"<redacted>\"");
  EXPECT_EQ(redact("x --api-key"), "x --api-key");
}

TEST(Redact, LeavesOtherFlagsAndReferencesAlone) {
  EXPECT_EQ(redact("bench --api-key-env MY_KEY --num-prompts 8"), "bench --api-key-env MY_KEY --num-prompts 8");
  EXPECT_EQ(redact("serve --api-key $SGLANG_KEY"), "serve --api-key $SGLANG_KEY");
  EXPECT_EQ(redact("--env \"HF_TOKEN=<your-hf-token>\""), "--env \"HF_TOKEN=<your-hf-token>\"");  // a placeholder
  EXPECT_EQ(redact("api_key=None, admin_api_key=None"), "api_key=None, admin_api_key=None");
  EXPECT_EQ(redact("max_total_tokens=4096 tokenizer_path=/m"), "max_total_tokens=4096 tokenizer_path=/m");
  EXPECT_EQ(redact("x--api-key y"), "x--api-key y");  // not a flag of its own
  EXPECT_EQ(redact("campaign secrets: 3 points planned"), "campaign secrets: 3 points planned");  // prose
}

TEST(Redact, SecretNamedAssignments) {
  EXPECT_EQ(redact("HF_TOKEN=hf_abc MY_API_KEY=k1 DB_SECRET_X=s sglang serve"),
            "HF_TOKEN=<redacted> MY_API_KEY=<redacted> DB_SECRET_X=<redacted> sglang serve");
  EXPECT_EQ(redact("cd x && export OPENAI_API_KEY=sk-9; run"), "cd x && export OPENAI_API_KEY=<redacted>; run");
  // SGLang logs its server arguments as a Python repr.
  EXPECT_EQ(redact("ServerArgs(model_path='m', api_key='sk-1', port=3)"),
            "ServerArgs(model_path='m', api_key='<redacted>', port=3)");
  EXPECT_EQ(redact("{\"api_key\": \"sk-1\", \"n\": 2}"), "{\"api_key\": \"<redacted>\", \"n\": 2}");
  EXPECT_EQ(redact("env:\n  HF_TOKEN: \"abc\"\n"), "env:\n  HF_TOKEN: \"<redacted>\"\n");
}

TEST(Redact, AuthorizationKeepsTheScheme) {
  EXPECT_EQ(redact("curl -H 'Authorization: Bearer sk-1' http://x"), "curl -H 'Authorization: Bearer <redacted>' http://x");
  EXPECT_EQ(redact("authorization: Basic dXNlcg=="), "authorization: Basic <redacted>");
  EXPECT_EQ(redact("{\"Authorization\": \"Bearer sk-1\"}"), "{\"Authorization\": \"Bearer <redacted>\"}");
  EXPECT_EQ(redact("Authorization: sk-1"), "Authorization: <redacted>");
}

TEST(Redact, IsIdempotent) {
  const std::string once = redact("A_TOKEN=t --api-key k Authorization: Bearer b api_key='x'");
  EXPECT_EQ(redact(once), once);
  EXPECT_EQ(once.find('t' + std::string("=t")), std::string::npos);
  EXPECT_EQ(once, "A_TOKEN=<redacted> --api-key <redacted> Authorization: Bearer <redacted> api_key='<redacted>'");
}

TEST(Redact, SecretNames) {
  EXPECT_TRUE(is_secret_name("HF_TOKEN"));
  EXPECT_TRUE(is_secret_name("api_key"));
  EXPECT_TRUE(is_secret_name("client_secret"));
  EXPECT_TRUE(is_secret_name("Authorization"));
  EXPECT_FALSE(is_secret_name("max_total_tokens"));
  EXPECT_FALSE(is_secret_name("api_key_env"));
  EXPECT_FALSE(is_secret_name("PATH"));
}

TEST(Redact, JsonByKeyArrayAndText) {
  auto v = boost::json::parse(R"({"server_args": {"api_key": "sk-1", "admin_api_key": null, "port": 3},
    "argv": ["serve", "--api-key", "sk-2", "--port", "3"], "launch": "serve --api-key=sk-3",
    "headers": {"Authorization": "Bearer sk-4"}})");
  redact_json(v);
  const std::string text = boost::json::serialize(v);
  for (const char* secret : {"sk-1", "sk-2", "sk-3", "sk-4"}) EXPECT_EQ(text.find(secret), std::string::npos) << secret;
  EXPECT_EQ(v.at("server_args").at("api_key"), "<redacted>");
  EXPECT_TRUE(v.at("server_args").at("admin_api_key").is_null());
  EXPECT_EQ(v.at("argv").at(3), "--port");
  EXPECT_EQ(v.at("launch"), "serve --api-key=<redacted>");
}
