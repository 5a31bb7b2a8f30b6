//! Pipeline creation time on the device (the driver's compile) of one program in each precision:
//! `cargo run -p gpu --release --example pipeline_time FILE.pica|FILE.shbin [fast|compat|exact]...
//! [dispatch] [glslang] [spv=DIR]`; `glslang` also times glslangValidator's SPIR-V of our GLSL. Set `MESA_SHADER_CACHE_DISABLE=true` to measure lavapipe cold.
use translate::Precision;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().expect("FILE.pica or FILE.shbin");
    let bytes = std::fs::read(path).expect("read");
    let shbin = if path.ends_with(".spv") {
        pica::shbin::Shbin::default()
    } else if path.ends_with(".shbin") {
        pica::shbin::Shbin::read(&bytes).expect("SHBIN")
    } else {
        let text = String::from_utf8(bytes).expect("UTF-8");
        let src = pica::asm::Source { name: path, text: &text };
        pica::asm::assemble(&[src], &Default::default()).expect("assemble").shbin
    };
    let dispatch_only = args.iter().any(|a| a == "dispatch");
    let spv_dir = args.iter().find_map(|a| a.strip_prefix("spv="));
    let mut precisions: Vec<Precision> = args
        .iter()
        .filter_map(|a| match a.as_str() {
            "fast" => Some(Precision::Fast),
            "compat" => Some(Precision::Compat),
            "exact" => Some(Precision::Exact),
            _ => None,
        })
        .collect();
    if precisions.is_empty() {
        precisions = vec![Precision::Fast, Precision::Compat, Precision::Exact];
    }
    let gpu = gpu::Gpu::new().expect("device");
    // `FILE.spv` instead of a program: time those words (a variant made by hand).
    if path.ends_with(".spv") {
        let words: Vec<u32> = std::fs::read(path)
            .expect("read")
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let build = gpu.build_compute_pipeline(&words, translate::pica::COMPUTE_ENTRY).expect("pipeline");
        let t = std::time::Instant::now();
        let block = translate::pica::UniformBlock::default().to_bytes();
        let n = translate::pica::REGS as usize * 4;
        gpu.run_compute(&words, translate::pica::COMPUTE_ENTRY, &block, &vec![0; n], 1, n).expect("run");
        println!(
            "{} words, pipeline {:.3} s, pipeline + first dispatch {:.3} s",
            words.len(),
            build.as_secs_f64(),
            t.elapsed().as_secs_f64()
        );
        return;
    }
    for precision in precisions {
        let t = std::time::Instant::now();
        let options = translate::pica::Options { precision, dispatch_only, compute_wrapper: true };
        let tr = translate::pica::translate(&shbin, 0, options).expect("translate");
        let words = tr.spirv().expect("spirv");
        let ours = t.elapsed().as_secs_f64();
        if let Some(dir) = spv_dir {
            let name = format!("{dir}/{precision:?}.spv").to_lowercase();
            std::fs::write(name, bytemuck_words(&words)).expect("write");
        }
        let cpu = testkit::cpu_seconds();
        let build = gpu.build_compute_pipeline(&words, translate::pica::COMPUTE_ENTRY).expect("pipeline");
        // llvmpipe compiles the LLVM part of a compute shader at its first dispatch.
        let t = std::time::Instant::now();
        let block = translate::pica::UniformBlock::default().to_bytes();
        let n = translate::pica::REGS as usize * 4;
        gpu.run_compute(&words, translate::pica::COMPUTE_ENTRY, &block, &vec![0; n], 1, n).expect("run");
        let first = t.elapsed().as_secs_f64();
        let cpu = testkit::cpu_seconds() - cpu;
        println!(
            "{precision:?}: {:?}, {} words, translate {:.1} ms, pipeline {:.3} s, pipeline + first dispatch {:.3} s \
             ({cpu:.2} s of CPU)",
            tr.interface().flow,
            words.len(),
            ours * 1e3,
            build.as_secs_f64(),
            first
        );
        if args.iter().any(|a| a == "glslang") {
            // glslangValidator's SPIR-V of our own GLSL for the same module, for comparison.
            let entry = (naga::ShaderStage::Compute, translate::pica::COMPUTE_ENTRY);
            let glsl = tr.write_entry(translate::Target::Glsl, entry).expect("glsl").to_bytes();
            let theirs = testkit::glslang_spirv(&String::from_utf8(glsl).expect("UTF-8"), "comp");
            let cpu = testkit::cpu_seconds();
            let build = gpu.build_compute_pipeline(&theirs, "main").expect("pipeline");
            let t = std::time::Instant::now();
            gpu.run_compute(&theirs, "main", &block, &vec![0; n], 1, n).expect("run");
            println!(
                "  glslang: {} words, pipeline {:.3} s, pipeline + first dispatch {:.3} s ({:.2} s of CPU)",
                theirs.len(),
                build.as_secs_f64(),
                t.elapsed().as_secs_f64(),
                testkit::cpu_seconds() - cpu
            );
        }
    }
}

fn bytemuck_words(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}
