// The failure browser's script: reads the data elements, fills the task table, applies the filters
// (the rules of stad_utils.report.browser.matching_tasks) and opens a task's drill-down on click.
(function () {
  "use strict";
  const root = document.getElementById("stad-browser");
  const rows = root.querySelector(".stad-tasks tbody");
  const count = root.querySelector(".stad-count");
  const controls = root.querySelectorAll("[data-filter]");

  /** The JSON of a data element: base64 of gzip, inflated with the browser's own DecompressionStream. */
  async function loadBlob(id) {
    const binary = atob(document.getElementById(id).textContent.trim());
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(inflated).text());
  }

  function readFilters() {
    const filters = {};
    controls.forEach((control) => {
      filters[control.dataset.filter] = control.type === "checkbox" ? control.checked : control.value;
    });
    return filters;
  }

  /** A task's values of a per-model facet (k, stages, flags): the chosen model's, or every model's. */
  function facet(task, name, model) {
    return model ? task[name][model] || [] : Object.values(task[name]).flat();
  }

  function matches(task, f) {
    return (!f.model || f.model in task.stages)
      && (!f.k || facet(task, "k", f.model).includes(f.k))
      && (!f.stage || facet(task, "stages", f.model).includes(f.stage))
      && (!f.flag || facet(task, "flags", f.model).includes(f.flag))
      && (!f.skill || task.skills.includes(f.skill))
      && (!f.disagree || task.disagree)
      && (task.id + " " + task.question).toLowerCase().includes(f.text.toLowerCase());
  }

  function cell(text, className) {
    const td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    return td;
  }

  function kCell(values) {
    const td = cell(values && values.length ? values.join(" / ") : "–", "stad-k");
    td.dataset.k = values && new Set(values).size === 1 ? values[0] : "mixed";
    return td;
  }

  function taskRow(data, index) {
    const task = data.tasks[index];
    const row = document.createElement("tr");
    row.className = "stad-task-row";
    row.tabIndex = 0;
    row.dataset.index = index;
    const flags = new Set(Object.values(task.flags).flat());
    const skills = cell(task.skills.map((skill) => data.short[skill] || skill).join(", "), "stad-skills");
    skills.title = task.skills.join("\n");
    row.append(cell(task.id), cell(task.source), cell(task.question, "stad-snippet"), cell(task.n_steps),
      skills, ...data.models.map((model) => kCell(task.k[model])),
      cell([...flags].map((flag) => data.flag_labels[flag]).join(", "), "stad-flags"),
      cell(task.disagree ? "≠" : ""));
    row.querySelector(".stad-snippet").title = task.question;
    return row;
  }

  /** A task's drill-down: asked of the viewer that served the page, or from the page's own data. */
  async function detailHtml(data, index) {
    const source = document.getElementById("stad-browser-details").dataset.source;
    if (source) {
      const response = await fetch(source + encodeURIComponent(data.tasks[index].id));
      if (!response.ok) throw new Error(`the viewer answered ${response.status}: ${await response.text()}`);
      return response.text();
    }
    const html = (await data.details)[index];
    if (html === null || html === undefined) {
      return "<p class=\"stad-not-carried\">This page does not carry this task's replies (see the note above " +
        "the table): open it with <code>python -m stad_utils.report.view</code>.</p>";
    }
    return html;
  }

  /** Open a row's drill-down below it, or close it if open. */
  async function toggleDetail(data, row) {
    const next = row.nextElementSibling;
    if (next && next.classList.contains("stad-detail-row")) {
      next.remove();
      row.classList.remove("stad-open");
      return;
    }
    const detail = document.createElement("tr");
    detail.className = "stad-detail-row";
    const td = document.createElement("td");
    td.colSpan = row.cells.length;
    try {
      td.innerHTML = await detailHtml(data, row.dataset.index);
    } catch (error) {
      td.textContent = `This task's details could not be read (${error.message}).`;
      td.classList.add("stad-error");
    }
    detail.append(td);
    row.after(detail);
    row.classList.add("stad-open");
  }

  // Rows put into the table at most: laying out tens of thousands of rows takes the page seconds.
  const MAX_ROWS = 500;

  function render(data) {
    const filters = readFilters();
    const shown = data.tasks.map((_, index) => index).filter((index) => matches(data.tasks[index], filters));
    rows.replaceChildren(...shown.slice(0, MAX_ROWS).map((index) => taskRow(data, index)));
    count.textContent = `${shown.length} of ${data.tasks.length} tasks`
      + (shown.length > MAX_ROWS ? ` (the first ${MAX_ROWS} listed: filter or search to find the others)` : "");
  }

  function start(data) {
    controls.forEach((control) => {
      control.addEventListener(control.type === "search" ? "input" : "change", () => render(data));
    });
    rows.addEventListener("click", (event) => {
      const row = event.target.closest("tr.stad-task-row");
      if (row) toggleDetail(data, row);
    });
    rows.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && event.target.matches("tr.stad-task-row")) toggleDetail(data, event.target);
    });
    render(data);
  }

  // The table needs only the small task list; the drill-downs inflate meanwhile, awaited on opening one.
  const details = document.getElementById("stad-browser-details").dataset.source
    ? Promise.resolve([]) : loadBlob("stad-browser-details");
  details.catch(() => {});  // a failure is shown when a drill-down is opened
  loadBlob("stad-browser-tasks").then((data) => start({...data, details})).catch((error) => {
    count.textContent = `The tasks could not be read (${error.message}); this browser needs DecompressionStream.`;
  });
})();
