/* accord report: draws the charts with vega-embed and makes the tables sortable, filterable, exportable. */
(function () {
  "use strict";
  /* Legends fit the chart's box: drawn first in one column with whole labels, then in as many columns as the
     box holds for the widest entry; drawn again when a resize changes that number. */
  var views = new WeakMap();
  function embed(el, spec, columns) {
    var s = JSON.parse(JSON.stringify(spec));
    s.config = s.config || {};
    s.config.legend = Object.assign({}, s.config.legend || {},
      { columns: columns, labelLimit: Math.max(80, (el.clientWidth || 400) - 60) });
    if (views.has(el)) { views.get(el).finalize(); views.delete(el); }
    return window.vegaEmbed(el, s, {
      renderer: "svg",
      actions: { export: true, source: false, compiled: false, editor: false }
    }).then(function (res) { views.set(el, res); return res; });
  }
  function legendColumns(el) {
    var svg = el.querySelector("svg"), legends = el.querySelectorAll("g.role-legend");
    if (!svg || !legends.length) { return 0; }
    var left = Infinity, widest = 0;
    legends.forEach(function (g) {
      left = Math.min(left, g.getBoundingClientRect().left - svg.getBoundingClientRect().left);
      g.querySelectorAll(".role-legend-label text").forEach(function (t) {
        widest = Math.max(widest, t.getBBox().width);
      });
    });
    if (!widest) { return 0; }
    return Math.max(1, Math.floor((el.clientWidth - left - 8) / (widest + 34)));
  }
  function drawChart(el, spec) {
    var fail = function (err) {
      el.textContent = "This chart could not be drawn: " + err;
      el.classList.add("chart-error");
      console.error(err);
    };
    el.dataset.rendered = "";
    embed(el, spec, 1).then(function () {
      var cols = legendColumns(el);
      el.dataset.columns = String(cols);
      el.dataset.width = String(el.clientWidth);
      if (cols <= 1) { el.dataset.rendered = "1"; return; }
      return embed(el, spec, cols).then(function () {
        if (el.querySelector("svg").getBoundingClientRect().width > el.clientWidth + 1) {
          return embed(el, spec, Math.max(1, cols - 1));  /* entries of unequal width: one column fewer */
        }
      }).then(function () { el.dataset.rendered = "1"; });
    }).catch(fail);
  }
  function drawCharts() {
    var specs = JSON.parse(document.getElementById("chart-specs").textContent);
    var charts = [];
    document.querySelectorAll("div.chart[data-chart]").forEach(function (el) {
      var spec = specs[el.dataset.chart];
      if (!spec) { return; }
      if (typeof window.vegaEmbed !== "function") {
        el.textContent = "The chart library did not load.";
        el.classList.add("chart-error");
        return;
      }
      charts.push([el, spec]);
      drawChart(el, spec);
    });
    var timer = null;
    window.addEventListener("resize", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        charts.forEach(function (c) {
          if (c[0].dataset.columns && c[0].dataset.columns !== "0" &&
              String(c[0].clientWidth) !== c[0].dataset.width) { drawChart(c[0], c[1]); }
        });
      }, 200);
    });
  }

  // A text cell beginning with = + - @ tab CR or LF is a formula to a spreadsheet (OWASP, CSV Injection):
  // it gets a leading ' unless it is a plain number (-1.5 stays a number) or the page was made with --raw-csv.
  // The same rule as accord.sanitize.csv_cell in Python.
  var RAW_CSV = document.body.getAttribute("data-raw-csv") === "1";
  var FORMULA_START = /^[=+\-@\t\r\n]/;
  var PLAIN_NUMBER = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;
  function spreadsheetSafe(s) {
    return (!RAW_CSV && FORMULA_START.test(s) && !PLAIN_NUMBER.test(s)) ? "'" + s : s;
  }
  function csvCell(v) {
    if (v === null || v === undefined) { return ""; }
    var s = typeof v === "string" ? spreadsheetSafe(v) : String(v);
    return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }

  function setupTable(box) {
    var data = JSON.parse(box.querySelector("script.table-data").textContent);
    var cols = data.columns, kinds = data.kinds, rows = data.rows, size = data.pageSize || 50;
    var decimals = data.decimals || [], pValues = data.pValues || [];
    var order = rows.map(function (_, i) { return i; });
    var shown = order.slice(), page = 0, sortCol = -1, sortDir = 1;
    var thead = box.querySelector("thead"), tbody = box.querySelector("tbody");
    var filter = box.querySelector(".table-filter"), count = box.querySelector(".table-count");
    var prev = box.querySelector(".table-prev"), next = box.querySelector(".table-next");
    var pageLabel = box.querySelector(".table-page");
    var tr = document.createElement("tr");
    cols.forEach(function (c, j) {
      var th = document.createElement("th");
      th.scope = "col";
      if (kinds[j] === "num") { th.className = "num"; }
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = c;
      b.title = "Sort by " + c;
      b.addEventListener("click", function () { sortBy(j); });
      th.appendChild(b);
      tr.appendChild(th);
    });
    thead.appendChild(tr);

    function key(v, j) {
      if (kinds[j] === "num") { return (v === null || v === "") ? -Infinity : Number(v); }
      return v === null ? "" : String(v).toLowerCase();
    }
    function sortBy(j) {
      sortDir = (sortCol === j) ? -sortDir : (kinds[j] === "num" ? -1 : 1);
      sortCol = j;
      thead.querySelectorAll("th").forEach(function (th, k) {
        if (k === j) { th.setAttribute("aria-sort", sortDir > 0 ? "ascending" : "descending"); }
        else { th.removeAttribute("aria-sort"); }
      });
      refresh();
    }
    function refresh() {
      var base = order.slice();
      if (sortCol >= 0) {
        base.sort(function (a, b) {
          var x = key(rows[a][sortCol], sortCol), y = key(rows[b][sortCol], sortCol);
          return x < y ? -sortDir : x > y ? sortDir : a - b;
        });
      }
      var q = filter.value.trim().toLowerCase();
      shown = q ? base.filter(function (i) {
        return rows[i].some(function (v) { return v !== null && String(v).toLowerCase().indexOf(q) >= 0; });
      }) : base;
      page = 0;
      render();
    }
    function render() {
      var pages = Math.max(1, Math.ceil(shown.length / size));
      if (page >= pages) { page = pages - 1; }
      var start = page * size, end = Math.min(shown.length, start + size);
      var frag = document.createDocumentFragment();
      for (var k = start; k < end; k++) {
        var r = rows[shown[k]], row = document.createElement("tr");
        for (var j = 0; j < cols.length; j++) {
          var td = document.createElement("td");
          if (kinds[j] === "num") { td.className = "num"; }
          var v = r[j];
          td.textContent = (v === null || v === undefined) ? "" :
            (pValues[j] && typeof v === "number" && v < 0.001) ? "< 0.001" :
            (kinds[j] === "num" && typeof v === "number" && (decimals[j] || !Number.isInteger(v))) ?
              v.toFixed(decimals[j] || 3) : String(v);
          row.appendChild(td);
        }
        frag.appendChild(row);
      }
      tbody.replaceChildren(frag);
      count.textContent = shown.length === rows.length ? rows.length + (rows.length === 1 ? " row" : " rows") :
        shown.length + " of " + rows.length + (rows.length === 1 ? " row" : " rows") +
        (shown.length === 1 ? " matches" : " match");
      pageLabel.textContent = shown.length ? "rows " + (start + 1) + "\u2013" + end + " (page " + (page + 1) +
        " of " + pages + ")" : "no rows";
      prev.disabled = page === 0;
      next.disabled = page >= pages - 1;
    }
    filter.addEventListener("input", refresh);
    prev.addEventListener("click", function () { page -= 1; render(); });
    next.addEventListener("click", function () { page += 1; render(); });
    box.querySelector(".table-csv").addEventListener("click", function () {
      var lines = [cols.map(csvCell).join(",")];
      shown.forEach(function (i) { lines.push(rows[i].map(csvCell).join(",")); });
      var blob = new Blob([lines.join("\r\n") + "\r\n"], { type: "text/csv;charset=utf-8" });
      var a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = data.csvName || "table.csv";
      document.body.appendChild(a);
      a.click();
      setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 0);
    });
    render();
  }

  document.querySelectorAll("div.datatable").forEach(setupTable);
  drawCharts();
})();
