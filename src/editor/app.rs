//! The window app: winit 0.30 `ApplicationHandler` + egui-winit + egui-wgpu. The 3D viewport
//! is rendered by our [`crate::render::Renderer`] into an offscreen texture shown as an egui
//! image, with the panels around it (see `app_ui`).

use super::app_ui::{Dialog, UiState};
use super::command::{EditorCommand, PlaybackCommand, ViewCommand};
use super::driver::Driver;
use super::files::{AUTOSAVE_INTERVAL, Autosaver};
use super::gfx::{Acquired, Gfx, save_png};
use super::script::ScriptEvent;
use super::{EditorState, files};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowId};

/// How the editor was started.
#[derive(Clone, Debug, Default)]
pub struct AppOptions {
    /// A preset or character to open (else the bundled angler).
    pub file: Option<PathBuf>,
    /// Quit after this many frames (tests, timing).
    pub exit_after_frames: Option<u64>,
    /// Write the 3D viewport to this PNG before quitting.
    pub screenshot: Option<PathBuf>,
    /// Screenshot size (default: the viewport's size).
    pub screenshot_size: Option<[u32; 2]>,
    pub screenshot_overlays: bool,
    pub script: Vec<ScriptEvent>,
    /// Inner window size in logical pixels.
    pub window_size: [u32; 2],
    /// Writes the viewport's place in the window (`{"origin": [x, y], "size": [w, h]}`,
    /// physical pixels) whenever it changes, so tests can aim the mouse.
    pub layout_out: Option<PathBuf>,
    /// How often unsaved changes are autosaved (default [`AUTOSAVE_INTERVAL`]).
    pub autosave_interval: Option<Duration>,
    /// Recover the autosave left by a session that did not exit cleanly, exactly as the
    /// recovery dialog's Recover button does; starting fails when there is none.
    pub recover: bool,
    /// MSAA samples of the 3D view (see [`Gfx::new`]); `None`: 1 on CPU adapters, else the
    /// adapter's best.
    pub msaa: Option<u32>,
}

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("window system: {0}")]
    EventLoop(String),
    #[error("{0}")]
    Startup(String),
}

/// Opens the editor window and runs until it closes.
pub fn run_app(options: AppOptions) -> Result<(), AppError> {
    let mut autosave = Autosaver::new(options.autosave_interval.unwrap_or(AUTOSAVE_INTERVAL));
    if options.recover && autosave.pending().is_none() {
        let dir = files::state_dir().unwrap_or_default();
        return Err(AppError::Startup(format!(
            "--recover: no autosave to recover in {} (ANGLERPOSE_STATE_DIR overrides it)",
            dir.display()
        )));
    }
    let event_loop = EventLoop::new().map_err(|e| AppError::EventLoop(e.to_string()))?;
    // A file that cannot be opened (a broken glTF, a fox instead of a humanoid) opens the
    // window on the bundled angler with the reason in a dialog, instead of exiting.
    let mut open_error = None;
    let doc = match &options.file {
        Some(path) => match files::open(path) {
            Ok((d, _)) => Ok(d),
            Err(e) => {
                tracing::error!("cannot open {}: {e}", path.display());
                open_error = Some((path.clone(), e.to_string()));
                files::open_default()
            }
        },
        None => files::open_default(),
    }
    .map_err(|e| AppError::Startup(e.to_string()))?;
    let mut ed = EditorState::new(doc);
    if let Some((path, message)) = &open_error {
        ed.notify(format!("cannot open {}: {message}", path.display()));
    }
    let proxy = event_loop.create_proxy();
    let mut app = App::new(options, ed, autosave);
    app.driver.watcher = Some(super::watch::CharacterWatcher::new(move || {
        // Wakes the idle event loop; `about_to_wait` then polls the watcher.
        let _ = proxy.send_event(());
    }));
    if let Some((path, message)) = open_error {
        app.ui.dialog = Some(super::app_ui::Dialog::Error {
            title: format!("Cannot open {}", file_name(&path)),
            message,
        });
    }
    event_loop
        .run_app(&mut app)
        .map_err(|e| AppError::EventLoop(e.to_string()))?;
    match app.fatal {
        Some(e) => Err(AppError::Startup(e)),
        None => Ok(()),
    }
}

fn file_name(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

struct App {
    options: AppOptions,
    ed: EditorState,
    ui: UiState,
    gfx: Option<Gfx>,
    egui_state: Option<egui_winit::State>,
    ctx: egui::Context,
    frame: u64,
    fatal: Option<String>,
    /// Commands, the script and its hooks, autosave, live reload and frame timing.
    driver: Driver,
    /// When egui (or a skipped frame) wants the next redraw.
    repaint_at: Option<Instant>,
    finished: bool,
    last_tick: Instant,
    title: String,
    mesh_source: (PathBuf, u64),
}

impl App {
    fn new(mut options: AppOptions, ed: EditorState, mut autosave: Autosaver) -> Self {
        let mut ui = UiState::default();
        ui.panels_on_clear = true;
        match autosave.pending() {
            // The Recover button's path: open the autosave as the next frame's command.
            Some(path) if options.recover => ui.request_open(&ed, path),
            // Scripted and timed runs never ask; the autosave stays for an interactive run.
            Some(path) if options.script.is_empty() && options.exit_after_frames.is_none() => {
                ui.dialog = Some(Dialog::Recover(path));
            }
            _ => {}
        }
        let mesh_source = (ed.doc().character_path.clone(), ed.doc().generation);
        let script = std::mem::take(&mut options.script);
        let driver = Driver::new(script, autosave, options.layout_out.clone());
        Self {
            options,
            ed,
            ui,
            gfx: None,
            egui_state: None,
            ctx: egui::Context::default(),
            frame: 0,
            fatal: None,
            driver,
            repaint_at: None,
            finished: false,
            last_tick: Instant::now(),
            title: String::new(),
            mesh_source,
        }
    }

    fn busy(&self) -> bool {
        self.ed.playback().playing()
            || self.ed.drag().is_some()
            || self.options.exit_after_frames.is_some()
            || self.driver.scripted()
    }

    fn apply(&mut self, cmd: impl Into<EditorCommand>) {
        self.driver.apply(&mut self.ed, cmd);
    }

    /// The script events due this frame; the driver applies their commands, the window's
    /// part is done here.
    fn run_script(&mut self) {
        let requests = self.driver.run_script(&mut self.ed, self.frame);
        if requests.gpu_error
            && let Some(gfx) = &self.gfx
        {
            gfx.gpu.inject_validation_error();
        }
        for path in &requests.screenshots {
            self.screenshot(path, None, self.options.screenshot_overlays);
        }
    }

    fn screenshot(&mut self, path: &std::path::Path, size: Option<[u32; 2]>, overlays: bool) {
        let Some(gfx) = &mut self.gfx else {
            return;
        };
        let size = size.unwrap_or(self.ed.view().viewport());
        let result = gfx
            .screenshot(&self.ed, size, overlays)
            .map_err(|e| e.to_string())
            .and_then(|img| save_png(&img, path).map_err(|e| e.to_string()));
        self.ed.notify(match result {
            Ok(()) => format!("screenshot {} ({}x{})", path.display(), size[0], size[1]),
            Err(e) => format!("screenshot {}: {e}", path.display()),
        });
        tracing::info!("{}", self.ed.message().unwrap_or_default());
    }

    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        let started = Instant::now();
        self.repaint_at = None;
        let (Some(gfx), Some(egui_state)) = (&mut self.gfx, &mut self.egui_state) else {
            return;
        };
        let window = gfx.window.clone();
        let dt = self.last_tick.elapsed().as_secs_f64();
        self.last_tick = Instant::now();
        let _ = self.ed.apply(PlaybackCommand::Tick { dt });
        // UI.
        let raw = egui_state.take_egui_input(&window);
        let ctx = self.ctx.clone();
        let viewport_image = gfx.viewport_image();
        let mut commands = super::ui::Commands::default();
        let mut output = ctx.run_ui(raw, |ui| {
            self.ui
                .show(ui, &mut self.ed, viewport_image, &mut commands);
        });
        // Drain the texture delta now so no early return can drop it unapplied.
        let texture_sets = std::mem::take(&mut output.textures_delta.set);
        let free = std::mem::take(&mut output.textures_delta.free);
        egui_state.handle_platform_output(&window, output.platform_output);
        for cmd in commands {
            self.apply(cmd);
        }
        self.run_script();
        self.handle_ui_requests(event_loop);
        let Some(gfx) = &mut self.gfx else {
            return;
        };
        let source = (
            self.ed.doc().character_path.clone(),
            self.ed.doc().generation,
        );
        if source != self.mesh_source {
            self.mesh_source = source;
            if let Err(e) = gfx.upload_stage(&self.ed.doc().stage) {
                self.ed.notify(format!("uploading meshes: {e}"));
            }
        }
        // 3D viewport, at the size the UI laid out: into its texture now (MSAA), or in place
        // by the UI pass below.
        let wanted = self.ui.viewport_pixels;
        let [x, y, ..] = self.ui.viewport_origin_pixels;
        self.driver.write_layout([x, y, wanted[0], wanted[1]]);
        if wanted[0] > 0 && wanted[1] > 0 {
            gfx.ensure_viewport(wanted);
            let _ = self.ed.apply(ViewCommand::SetViewport {
                width: wanted[0],
                height: wanted[1],
            });
            if let Err(e) = gfx.render_viewport(&self.ed) {
                self.ed.notify(format!("render: {e}"));
            }
        }
        // egui into the surface, cleared to the panels' fill (they leave it to the clear).
        let ppp = output.pixels_per_point;
        let clear = ctx.global_style().visuals.panel_fill;
        self.ui.drop_panel_fills(&mut output.shapes, clear);
        let jobs = ctx.tessellate(output.shapes, ppp);
        let size = window.inner_size();
        let laid_out = [size.width.max(1), size.height.max(1)];
        for (id, deltas) in &texture_sets {
            for delta in deltas {
                gfx.egui_renderer
                    .update_texture(&gfx.gpu.device, &gfx.gpu.queue, *id, delta);
            }
        }
        if let Some([w, h]) = self.driver.resize_before_acquire.take() {
            let _ = window.request_inner_size(winit::dpi::PhysicalSize::new(w, h));
        }
        let ui = (&jobs[..], ppp, clear);
        if let Some(at) = present(gfx, &mut self.driver, &mut self.ed, &window, ui, laid_out) {
            self.repaint_at = Some(at);
        }
        for id in &free {
            gfx.egui_renderer.free_texture(id);
        }
        recover_from_gpu_errors(gfx, &mut self.ed, &window);
        let title = self.ed.title();
        if title != self.title {
            window.set_title(&title);
            self.title = title;
        }
        self.frame += 1;
        self.driver.frame_done(started.elapsed().as_secs_f64());
        if self
            .options
            .exit_after_frames
            .is_some_and(|n| self.frame >= n)
        {
            self.driver.quitting = true;
        }
        if self.driver.quitting {
            self.finish(event_loop);
            return;
        }
        let repaint = output
            .viewport_output
            .get(&egui::ViewportId::ROOT)
            .map(|v| v.repaint_delay)
            .unwrap_or(Duration::MAX);
        if self.busy() || repaint.is_zero() {
            window.request_redraw();
        } else if let Some(at) = Instant::now().checked_add(repaint) {
            self.repaint_at = Some(self.repaint_at.map_or(at, |t| t.min(at)));
        }
    }

    fn handle_ui_requests(&mut self, event_loop: &ActiveEventLoop) {
        if let Some((path, size, overlays)) = self.ui.screenshot_request.take() {
            self.screenshot(&path, Some(size), overlays);
        }
        if self.ui.quit_confirmed {
            self.driver.quitting = true;
            self.finish(event_loop);
        }
    }

    fn finish(&mut self, event_loop: &ActiveEventLoop) {
        if self.finished {
            return;
        }
        self.finished = true;
        if let Some(path) = self.options.screenshot.clone() {
            let overlays = self.options.screenshot_overlays;
            self.screenshot(&path, self.options.screenshot_size, overlays);
            self.options.screenshot = None;
        }
        if let Some((mean, frames)) = self.driver.mean_frame() {
            let adapter = self
                .gfx
                .as_ref()
                .map(|g| g.gpu.describe())
                .unwrap_or_default();
            tracing::info!(
                "frames: {} · mean frame {:.2} ms over the last {} · viewport {}x{} · {adapter}",
                self.frame,
                mean * 1000.0,
                frames,
                self.ed.view().viewport()[0],
                self.ed.view().viewport()[1]
            );
        }
        // A clean exit: no recovery is offered next time.
        self.driver.autosave.clean_exit();
        event_loop.exit();
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gfx.is_some() {
            return;
        }
        let [w, h] = self.options.window_size;
        let attrs = Window::default_attributes()
            .with_title(self.ed.title())
            .with_inner_size(winit::dpi::LogicalSize::new(w.max(320), h.max(240)));
        let window = match event_loop.create_window(attrs) {
            Ok(w) => Arc::new(w),
            Err(e) => {
                self.fatal = Some(format!("creating the window: {e}"));
                event_loop.exit();
                return;
            }
        };
        let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::all());
        let mut desc = wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
            event_loop.owned_display_handle(),
        ));
        desc.backends = backends;
        let instance = wgpu::Instance::new(desc);
        let mut gfx = match Gfx::new(instance, window.clone(), self.options.msaa) {
            Ok(g) => g,
            Err(e) => {
                self.fatal = Some(e.to_string());
                event_loop.exit();
                return;
            }
        };
        if let Err(e) = gfx.upload_stage(&self.ed.doc().stage) {
            self.fatal = Some(format!("uploading meshes: {e}"));
            event_loop.exit();
            return;
        }
        tracing::info!("anglerpose editor on {}", gfx.gpu.describe());
        if super::app_ui::style_for_adapter(&self.ctx, &gfx.gpu) {
            // Every UI triangle costs a CPU rasteriser: square corners, no feather.
            tracing::info!("UI: lean (square corners, no feathering) on a CPU adapter");
        }
        let max_texture = gfx.gpu.device.limits().max_texture_dimension_2d as usize;
        self.egui_state = Some(egui_winit::State::new(
            self.ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            Some(max_texture),
        ));
        self.gfx = Some(gfx);
        window.request_redraw();
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(gfx) = &mut self.gfx else {
            return;
        };
        let window = gfx.window.clone();
        if let Some(state) = &mut self.egui_state {
            let response = state.on_window_event(&window, &event);
            // egui asks to repaint on every `RedrawRequested` too; following that would redraw
            // forever (a busy idle window). `redraw` decides about the next frame itself.
            if response.repaint && !matches!(event, WindowEvent::RedrawRequested) {
                window.request_redraw();
            }
        }
        match event {
            WindowEvent::CloseRequested => {
                if self.ed.doc().dirty && self.options.exit_after_frames.is_none() {
                    self.ui.dialog = Some(Dialog::ConfirmQuit);
                    window.request_redraw();
                } else {
                    self.finish(event_loop);
                }
            }
            WindowEvent::Resized(_) | WindowEvent::ScaleFactorChanged { .. } => {
                gfx.resize();
                window.request_redraw();
            }
            WindowEvent::DroppedFile(path) => {
                if files::is_openable(&path) {
                    self.ui.dropped(&self.ed, path);
                } else {
                    self.ed.notify(format!(
                        "{}: not a .glb, .gltf or .json file",
                        path.display()
                    ));
                }
                window.request_redraw();
            }
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            _ => {}
        }
    }

    /// Runs after every batch of events: autosaves when due (also while idle) and sleeps
    /// until the next repaint or autosave.
    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let now = Instant::now();
        let (reloaded, driver_due) = self.driver.idle(&mut self.ed, now);
        if reloaded {
            self.repaint_at = Some(now);
        }
        let Some(gfx) = &self.gfx else {
            return;
        };
        if self.busy() || self.repaint_at.is_some_and(|t| t <= now) {
            self.repaint_at = None;
            gfx.window.request_redraw();
        }
        let wake = [self.repaint_at, driver_due].into_iter().flatten().min();
        // Never a deadline in the past: the loop would spin without sleeping.
        event_loop.set_control_flow(match wake {
            Some(t) if t > now => ControlFlow::WaitUntil(t),
            Some(_) => ControlFlow::Poll,
            None => ControlFlow::Wait,
        });
    }
}

/// Draws the egui pass (`jobs` at `ppp`, cleared to `clear`) into the window's next surface
/// texture and presents it; asks for another layout when the texture's size is not
/// `laid_out` (the window's size when this frame was laid out). Returns when to try again where the surface gave no texture.
fn present(
    gfx: &mut Gfx,
    driver: &mut Driver,
    ed: &mut EditorState,
    window: &Window,
    (jobs, ppp, clear): (&[egui::ClippedPrimitive], f32, egui::Color32),
    laid_out: [u32; 2],
) -> Option<Instant> {
    match gfx.acquire(&mut driver.surface_fault) {
        Ok(Acquired::Texture(target)) => {
            let (drawn, viewport) = gfx.draw_ui(target, jobs, ppp, clear, ed);
            if let Err(e) = viewport {
                ed.notify(format!("render: {e}"));
            }
            if drawn != laid_out {
                // The window changed size between layout and acquire (a resize burst):
                // this frame was clipped to the surface; lay out again for the new size.
                tracing::info!(
                    "window resized mid-frame: drew {}x{} (laid out at {}x{})",
                    drawn[0],
                    drawn[1],
                    laid_out[0],
                    laid_out[1]
                );
                window.request_redraw();
            }
        }
        Ok(Acquired::Hidden) => {}
        Ok(Acquired::Retry) => {
            return Some(Instant::now() + Duration::from_millis(100));
        }
        Err(e) => {
            tracing::warn!("window surface: {e}");
            return Some(Instant::now() + Duration::from_millis(500));
        }
    }
    None
}

/// After wgpu reported errors that no error scope caught (the handler logged them), this
/// frame may be wrong: rebuilds the renderer, uploads the meshes again and draws another.
fn recover_from_gpu_errors(gfx: &mut Gfx, ed: &mut EditorState, window: &Window) {
    let errors = gfx.gpu.errors.take();
    if !errors.is_empty() {
        // wgpu reported what no error scope caught (the handler logged it): this frame may
        // be wrong, so draw another with a rebuilt renderer and freshly uploaded meshes.
        gfx.rebuild_renderer();
        ed.notify(match gfx.upload_stage(&ed.doc().stage) {
            Ok(()) => format!(
                "GPU error (renderer rebuilt): {}",
                errors.last().map(String::as_str).unwrap_or_default()
            ),
            Err(e) => format!("GPU error; uploading meshes again: {e}"),
        });
        window.request_redraw();
    }
}
