//! `shaderport pica fragment STATE.json --to T [-o OUT]` and `shaderport verify STATE.json` end
//! to end, on a state made by `pica cmdlist --state --json` from a command list.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shaderport(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shaderport")).args(args).output().expect("run shaderport")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shaderport-pfs-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A command list of single register writes (value, then the header with all byte lanes).
fn cmdlist(dir: &Path, writes: &[(u16, u32)]) -> PathBuf {
    let words: Vec<u32> = writes.iter().flat_map(|&(id, v)| [v, 0x000F_0000 | u32::from(id)]).collect();
    let path = dir.join("list.bin");
    std::fs::write(&path, words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    path
}

/// Stage 0 modulates texture 0 by the primary colour, stage 1 adds its constant; the other
/// stages pass through; alpha test "greater than" 0x40; fog on; an output map with colour in
/// o1 and texcoord 0 in o2.
fn writes(constant: u32, alpha_ref: u32) -> Vec<(u16, u32)> {
    let mut w = vec![
        (0x080, 1),           // texture unit 0 on
        (0x0C0, 0x0003_0030), // stage 0: rgb0 = tex0, rgb1 = primary; alpha0 = tex0... (a0 = 3, a1 = 0)
        (0x0C2, 0x0001_0001), // modulate, modulate
        (0x0C8, 0x00F0_0FEF), // stage 1: rgb previous, constant; alpha previous
        (0x0CA, 0x0000_0002), // add, replace
        (0x0CB, constant),
        (0x0E0, 0x0000_0005),             // fog
        (0x104, 0x51 | (alpha_ref << 8)), // alpha test on, greater
        (0x04F, 3),
        (0x050, 0x0302_0100),
        (0x051, 0x0B0A_0908),
        (0x052, 0x1F10_0D0C),
    ];
    for base in [0x0D0u16, 0x0D8, 0x0F0, 0x0F8] {
        w.push((base, 0x00F0_00F0));
    }
    w
}

fn state_json(dir: &Path, writes: &[(u16, u32)], name: &str) -> PathBuf {
    let list = cmdlist(dir, writes);
    let out = shaderport(&["pica", "cmdlist", list.to_str().unwrap(), "--state", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let path = dir.join(name);
    std::fs::write(&path, &out.stdout).unwrap();
    path
}

#[test]
fn pica_fragment_writes_every_target_from_a_state_file() {
    let dir = temp_dir("targets");
    let state = state_json(&dir, &writes(0x1020_3040, 0x40), "state.json");
    let out = shaderport(&["pica", "fragment", state.to_str().unwrap(), "--to", "wgsl"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let wgsl = text(&out.stdout);
    assert!(wgsl.contains("@fragment"), "{wgsl}");
    // The output map's registers are the inputs; unit 0 is declared.
    assert!(wgsl.contains("@location(1) o1") && wgsl.contains("@location(2) o2"), "{wgsl}");
    assert!(wgsl.contains("texture_2d<u32>"), "{wgsl}");
    for to in ["glsl", "glsl-es", "msl", "hlsl", "spirv"] {
        let file = dir.join(format!("out.{to}"));
        let out = shaderport(&["pica", "fragment", state.to_str().unwrap(), "--to", to, "-o", file.to_str().unwrap()]);
        assert!(out.status.success(), "{to}: {}", text(&out.stderr));
        assert!(std::fs::metadata(&file).unwrap().len() > 100, "{to}");
    }
    let spv = std::fs::read(dir.join("out.spirv")).unwrap();
    assert_eq!(&spv[..4], &0x0723_0203u32.to_le_bytes());
    if testkit::tool("spirv-val") {
        assert_eq!(testkit::spirv_val(&dir.join("out.spirv")), None);
    }
    // Another constant colour and alpha reference: uniforms only, the same SPIR-V bytes.
    let other = state_json(&dir, &writes(0xFFEE_DDCC, 0x99), "other.json");
    let file = dir.join("other.spv");
    let out = shaderport(&["pica", "fragment", other.to_str().unwrap(), "--to", "spirv", "-o", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&file).unwrap(), spv);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pica_fragment_names_the_file_and_place_of_bad_input() {
    let dir = temp_dir("bad");
    let cases: [(&str, &str, &str); 4] = [
        ("syntax.json", "{\n  \"registers\": [\n    {\"id\": 1,, }\n  ]\n}", "line 3"),
        ("noregs.json", "{\"writes\": 3}", "no `registers` array"),
        (
            "id.json",
            "{\"registers\": [{\"id\": 1, \"value\": 2}, {\"id\": 4096, \"value\": 1}]}",
            "`registers[1]`: register id 0x1000",
        ),
        ("fog.json", "{\"registers\": [], \"fog_lut\": [1, -2]}", "`fog_lut[1]`"),
    ];
    for (name, body, want) in cases {
        let path = dir.join(name);
        std::fs::write(&path, body).unwrap();
        let out = shaderport(&["pica", "fragment", path.to_str().unwrap(), "--to", "wgsl"]);
        assert!(!out.status.success(), "{name}");
        let err = text(&out.stderr);
        assert!(err.contains(name) && err.contains(want), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verify_runs_a_state_file_on_the_device() {
    if !testkit::required() && gpu::Gpu::new().is_err() {
        eprintln!("skipping: no Vulkan device");
        return;
    }
    let dir = temp_dir("verify");
    let state = state_json(&dir, &writes(0x1020_3040, 0x40), "state.json");
    let out = shaderport(&["verify", state.to_str().unwrap(), "--cases", "256"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert_eq!(stdout.lines().last(), Some("256 passed, 0 failed"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
