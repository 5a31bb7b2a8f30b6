//! `shaderport batch` over synthetic dumps (`latte::dump`): keys and dedup counts as built,
//! every SPIR-V file accepted by spirv-val, report.json complete, a corrupted file reported
//! while the rest is translated, a second run writing nothing, `--cache DIR` and `--no-cache`,
//! and agreement with `shaderport latte inventory`.

use latte::dump::{generate, DumpConfig};
use latte::gfd::Stage;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shaderport(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shaderport")).args(args).output().expect("run shaderport")
}

fn report(out: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(out.join("report.json")).expect("report.json")).expect("report.json is JSON")
}

fn stage_name(s: Stage) -> &'static str {
    match s {
        Stage::Vertex => "vert",
        Stage::Pixel => "frag",
        Stage::Geometry => "geom",
    }
}

fn mtimes(dir: &Path) -> BTreeMap<PathBuf, std::time::SystemTime> {
    std::fs::read_dir(dir)
        .expect("output folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| !p.ends_with("report.json") && !p.ends_with(".cache"))
        .map(|p| {
            let t = std::fs::metadata(&p).and_then(|m| m.modified()).expect("mtime");
            (p, t)
        })
        .collect()
}

/// Every shader of `keys` has a `.meta` that reads back as its interface, and `varyings.txt`
/// holds dense locations (0, 1, ...) of exactly the semantics the `.meta` files use, with the
/// location each of them gives.
fn check_interfaces(out: &Path, r: &Value, keys: &BTreeMap<String, String>) {
    use translate::latte::interface::InterfaceStage;
    use translate::latte::{Interface, Varyings};
    assert!(r["interface"].as_str().unwrap().contains("<key>.<stage>.meta"), "{}", r["interface"]);
    assert_eq!(r["varyings"]["file"], "varyings.txt");
    let map = Varyings::parse(&std::fs::read_to_string(out.join("varyings.txt")).expect("varyings.txt")).unwrap();
    assert_eq!(r["varyings"]["semantics"], map.len());
    assert!(map.len() > 1, "the dump's headers carry semantics");
    let locations: Vec<u32> = map.iter().map(|(_, l)| l).collect();
    assert_eq!(locations, (0..map.len() as u32).collect::<Vec<_>>());
    let metas = testkit::files(out, "meta");
    assert_eq!(metas.len(), keys.len());
    let mut used = std::collections::BTreeSet::new();
    let (mut vs_links, mut ps_links) = (0, 0);
    for f in &metas {
        let i = Interface::from_json(&std::fs::read_to_string(f).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let stage = match i.stage {
            InterfaceStage::Vertex => "vert",
            InterfaceStage::Pixel => "frag",
            InterfaceStage::Geometry => "geom",
        };
        assert_eq!(f.file_name().unwrap().to_str().unwrap(), format!("{}.{stage}.meta", i.key));
        assert_eq!(keys.get(&i.key).map(String::as_str), Some(stage), "{}", f.display());
        assert!(!i.varyings.is_empty(), "{}", f.display());
        for v in &i.varyings {
            assert_eq!(map.location(v.semantic as u8), Some(v.location), "{}", f.display());
            used.insert(v.semantic as u8);
        }
        match i.stage {
            InterfaceStage::Pixel => ps_links += i.varyings.len(),
            _ => {
                vs_links += i.varyings.len();
                if i.stage == InterfaceStage::Vertex {
                    assert!(!i.attributes.is_empty(), "{}", f.display());
                }
            }
        }
    }
    assert!(vs_links > 0 && ps_links > 0);
    assert_eq!(used, map.iter().map(|(s, _)| s).collect(), "varyings.txt lists exactly the semantics used");
}

#[test]
fn batch_translates_the_game_sized_dump_and_a_rerun_writes_nothing() {
    let root = testkit::temp_dir("batch-game");
    let (dir, out) = (root.join("dump"), root.join("out"));
    let _ = std::fs::remove_dir_all(&out);
    let dump = generate(&DumpConfig::game(1));
    dump.write_to(&dir).expect("write the dump");
    let exp = &dump.expected;
    assert_eq!((exp.files, exp.entries, exp.gfds.len(), exp.keys.len()), (971, 2014, 662, 668));

    let args = ["batch", dir.to_str().unwrap(), "--out", out.to_str().unwrap(), "--jobs", "2"];
    let first = shaderport(&args);
    let err = String::from_utf8_lossy(&first.stderr);
    // Geometry programs are not translated yet: exactly those 7 fail, and say so.
    assert_eq!(first.status.code(), Some(1), "{err}");
    assert_eq!(err.matches("geometry programs are not translated yet").count(), 7, "{err}");
    let r = report(&out);
    assert_eq!(r["containers"], exp.files);
    assert_eq!(r["entries"], exp.entries);
    assert_eq!(r["unique_gfds"], exp.gfds.len());
    assert_eq!(r["unique_keys"], exp.keys.len());
    assert_eq!(r["file_errors"].as_array().unwrap().len(), 0);
    let shaders = r["shaders"].as_array().unwrap();
    let keys: BTreeMap<String, String> = shaders
        .iter()
        .map(|s| (s["key"].as_str().unwrap().to_string(), s["stage"].as_str().unwrap().to_string()))
        .collect();
    let want: BTreeMap<String, String> =
        exp.keys.iter().map(|(k, s)| (k.clone(), stage_name(*s).to_string())).collect();
    assert_eq!(keys, want);
    let sources = |stage: &str| -> usize {
        shaders.iter().filter(|s| s["stage"] == stage).map(|s| s["sources"].as_array().unwrap().len()).sum()
    };
    // Every pixel entry (967 loose, uber and null, 967 in the package), each LFX entry once
    // for its vertex shader and once more for a geometry pair's geometry shader.
    assert_eq!((sources("frag"), sources("vert"), sources("geom")), (1936, 78, 7));
    for s in shaders {
        assert_eq!(s["sha1"].as_str().unwrap().len(), 40, "{s}");
        for field in ["times", "sizes", "sources", "outputs", "status"] {
            assert!(!s[field].is_null(), "{field} missing: {s}");
        }
        let ok = s["stage"] != "geom";
        assert_eq!(s["status"], if ok { "ok" } else { "failed" }, "{s}");
        if ok {
            assert!(s["sizes"]["spirv"].as_u64().unwrap() > 0, "{s}");
        } else {
            assert!(s["error"].as_str().unwrap().contains("geometry"), "{s}");
        }
    }
    let t = &r["totals"];
    assert_eq!((t["shaders"].as_u64(), t["ok"].as_u64(), t["failed"].as_u64()), (Some(668), Some(661), Some(7)));
    // A SPIR-V file and a .meta per translated shader, a .meta per geometry shader (the
    // interface comes from the header, translated or not) and varyings.txt.
    assert_eq!(t["files_written"], 661 * 2 + 7 + 1);
    check_interfaces(&out, &r, &want);
    let slow: Vec<u64> = r["slowest"].as_array().unwrap().iter().map(|s| s["total_us"].as_u64().unwrap()).collect();
    assert_eq!(slow.len(), 10);
    assert!(slow.windows(2).all(|w| w[0] >= w[1]), "{slow:?}");

    let spv = testkit::files(&out, "spv");
    assert_eq!(spv.len(), 661);
    let rejected: Vec<String> = testkit::par_map(&spv, |f| testkit::spirv_val(f)).into_iter().flatten().collect();
    assert!(rejected.is_empty(), "{} rejected, first: {}", rejected.len(), rejected[0]);

    // The second run over the unchanged dump writes nothing and translates nothing.
    let before = mtimes(&out);
    let second = shaderport(&args);
    assert_eq!(second.status.code(), Some(1));
    assert_eq!(mtimes(&out), before);
    let r2 = report(&out);
    assert_eq!(r2["totals"]["files_written"], 0);
    assert_eq!(r2["totals"]["cached"], 661);
    assert_eq!(r2["totals"]["phases"]["translate_us"], 0);
    // Served from the translation cache in OUTDIR/.cache; the 7 failed shaders miss every run.
    let c = &r2["cache"];
    assert_eq!((c["hits"].as_u64(), c["misses"].as_u64(), c["written"].as_u64()), (Some(661), Some(7), Some(0)), "{c}");
    assert_eq!(c["dir"].as_str().map(PathBuf::from), Some(out.join(".cache")));
    assert_eq!(r2["config"]["translator"].as_str().map(str::len), Some(32));
    assert!(
        r2["totals"]["wall_us"].as_u64().unwrap() < r["totals"]["wall_us"].as_u64().unwrap(),
        "second run {} us, first {} us",
        r2["totals"]["wall_us"],
        r["totals"]["wall_us"]
    );

    // `latte inventory` finds the same unique GFDs and keys.
    let inv = shaderport(&["latte", "inventory", dir.to_str().unwrap()]);
    assert!(inv.status.success());
    let inv: Value = serde_json::from_slice(&inv.stdout).expect("inventory JSON");
    assert_eq!(inv["gfds"].as_array().unwrap().len(), exp.gfds.len());
    let inv_keys: BTreeMap<String, String> = inv["keys"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, s)| {
            let s = match s.as_str().unwrap() {
                "vertex" => "vert",
                "pixel" => "frag",
                _ => "geom",
            };
            (k.clone(), s.to_string())
        })
        .collect();
    assert_eq!(inv_keys, keys);
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn batch_reports_a_corrupted_file_and_translates_the_rest_to_every_target() {
    let root = testkit::temp_dir("batch-corrupt");
    let (dir, out) = (root.join("dump"), root.join("out"));
    let _ = std::fs::remove_dir_all(&out);
    let cfg = DumpConfig {
        seed: 5,
        es_files: 30,
        es_unique: 10,
        spkg_differing: 1,
        vertex: 4,
        geometry_pairs: 0,
        fetches: false,
    };
    let dump = generate(&cfg);
    dump.write_to(&dir).expect("write the dump");
    // Every loose .es GFD is also in the package, so cutting one file short loses no key.
    let (victim, bytes) = &dump.files[3];
    std::fs::write(dir.join(victim), &bytes[..bytes.len() / 2]).unwrap();
    let o = shaderport(&[
        "batch",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--to",
        "spirv,glsl,msl,hlsl,wgsl",
        "--disasm",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let r = report(&out);
    let fe = r["file_errors"].as_array().unwrap();
    assert_eq!(fe.len(), 1, "{fe:?}");
    assert!(fe[0]["file"].as_str().unwrap().ends_with(victim.to_str().unwrap()), "{fe:?}");
    assert!(fe[0]["error"].as_str().unwrap().contains("0x"), "the error names a byte offset: {fe:?}");
    assert!(err.contains(victim.to_str().unwrap()), "{err}");
    let n = dump.expected.keys.len();
    assert_eq!(r["totals"]["ok"].as_u64(), Some(n as u64));
    assert_eq!(r["totals"]["failed"], 0);
    for ext in ["spv", "comp", "metal", "hlsl", "wgsl", "txt", "meta"] {
        let listed = testkit::files(&out, ext).into_iter().filter(|f| !f.ends_with("varyings.txt")).count();
        assert_eq!(listed, n, "{ext}");
    }
    for f in testkit::files(&out, "comp") {
        assert_eq!(testkit::glslang(std::slice::from_ref(&f)), None, "{}", f.display());
    }
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn batch_cache_folder_flags() {
    let root = testkit::temp_dir("batch-cache-flags");
    let (dir, out, cache) = (root.join("dump"), root.join("out"), root.join("cache"));
    let _ = std::fs::remove_dir_all(&out);
    let cfg = DumpConfig {
        seed: 3,
        es_files: 4,
        es_unique: 2,
        spkg_differing: 0,
        vertex: 1,
        geometry_pairs: 0,
        fetches: false,
    };
    generate(&cfg).write_to(&dir).expect("write the dump");
    let n = generate(&cfg).expected.keys.len() as u64;
    let base = ["batch", dir.to_str().unwrap(), "--out", out.to_str().unwrap()];
    let with = |extra: &[&str]| {
        let o = shaderport(&[&base[..], extra].concat());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    // --cache DIR: the entries go there, none into OUTDIR.
    let stdout = with(&["--cache", cache.to_str().unwrap()]);
    assert_eq!(testkit::files(&cache, "spc").len() as u64, n);
    assert!(!out.join(".cache").exists());
    assert!(
        stdout.contains(&format!("cache: {}: 0 hits, {n} misses (0 unusable), {n} entries written", cache.display())),
        "{stdout}"
    );
    let stdout = with(&["--cache", cache.to_str().unwrap()]);
    assert!(stdout.contains(&format!("0 translated, {n} from the cache")), "{stdout}");
    assert_eq!(report(&out)["cache"]["hits"].as_u64(), Some(n));
    // --no-cache: every shader translated, no cache object and no folder.
    let stdout = with(&["--no-cache"]);
    assert!(stdout.contains(&format!("{n} translated, 0 from the cache")) && !stdout.contains("cache: "), "{stdout}");
    assert!(report(&out)["cache"].is_null());
    assert!(!out.join(".cache").exists());
    let o = shaderport(&[&base[..], &["--no-cache", "--cache", cache.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2), "the two flags conflict");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn batch_verify_checks_each_translated_shader_on_the_device() {
    let root = testkit::temp_dir("batch-verify");
    let (dir, out) = (root.join("dump"), root.join("out"));
    let _ = std::fs::remove_dir_all(&out);
    // One loose pixel shader (and null.es repeating it), uber.es and one vertex shader: 3 keys.
    let cfg = DumpConfig {
        seed: 2,
        es_files: 1,
        es_unique: 1,
        spkg_differing: 0,
        vertex: 1,
        geometry_pairs: 0,
        fetches: false,
    };
    let dump = generate(&cfg);
    dump.write_to(&dir).expect("write the dump");
    let o = Command::new(env!("CARGO_BIN_EXE_shaderport"))
        .args(["batch", dir.to_str().unwrap(), "--out", out.to_str().unwrap(), "--verify", "--cases", "8"])
        .env_remove("XDG_RUNTIME_DIR")
        .output()
        .expect("run shaderport");
    let (stdout, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    if err.contains("no Vulkan device") {
        assert!(!testkit::required(), "{err}");
        return;
    }
    assert!(!err.contains("panicked"), "{err}");
    let r = report(&out);
    assert_eq!(dump.expected.keys.len(), 3);
    let shaders = r["shaders"].as_array().unwrap();
    assert_eq!(shaders.len(), 3);
    // Each shader's check is in its entry, its status agreeing with its counts; one that did
    // not pass is named on stderr with its first mismatch.
    let (mut passed_shaders, mut cases_passed, mut cases_failed) = (0, 0, 0);
    for s in shaders {
        assert_eq!(s["status"], "ok", "{s}");
        let v = &s["verify"];
        let (p, f) = (v["passed"].as_u64().unwrap(), v["failed"].as_u64().unwrap());
        // Pixel programs' helper lanes are not compared; vertex programs compare all 8.
        assert!(p + f > 0 && p + f <= 8, "{s}");
        if s["stage"] == "vert" {
            assert_eq!(p + f + v["skipped"].as_u64().unwrap(), 8, "{s}");
        }
        if f == 0 {
            assert_eq!(v["status"], "passed", "{s}");
            passed_shaders += 1;
        } else {
            assert_eq!(v["status"], "failed", "{s}");
            let key = format!("{}.{}", s["key"].as_str().unwrap(), s["stage"].as_str().unwrap());
            let line = err.lines().find(|l| l.contains(&key) && l.contains("verify failed: invocation "));
            assert!(line.is_some(), "{key}: {err}");
        }
        cases_passed += p;
        cases_failed += f;
    }
    let t = &r["totals"]["verify"];
    assert_eq!((t["shaders"].as_u64(), t["passed"].as_u64()), (Some(3), Some(passed_shaders)));
    assert_eq!((t["cases_passed"].as_u64(), t["cases_failed"].as_u64()), (Some(cases_passed), Some(cases_failed)));
    let line = format!(
        "verify: 3 shaders: {passed_shaders} passed, {} failed, 0 errors; {cases_passed} cases passed, {cases_failed} failed;",
        3 - passed_shaders
    );
    assert!(stdout.contains(&line), "{stdout}");
    assert_eq!(o.status.success(), passed_shaders == 3, "{err}");
    // A run without --verify leaves the check out of the report.
    let o = shaderport(&["batch", dir.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success());
    let r = report(&out);
    assert!(r["totals"]["verify"].is_null() && r["shaders"][0]["verify"].is_null(), "{}", r["totals"]);
    let _ = std::fs::remove_dir_all(root);
}
