// "My table": pick a family, players and skill level, tick house rules; read what each rule changes.
// The numbers come from data.js (window.ATLAS), written by the atlas; nothing is fetched.
(function () {
  var A = window.ATLAS;
  var fam = document.getElementById("family"), pl = document.getElementById("players"),
      lv = document.getElementById("level"), box = document.getElementById("rules");
  var cells = {};  // "key|family|players|level" -> {metric: [diff, lo, hi, detectable, deals]}
  A.cells.forEach(function (c) {
    var k = c[0] + "|" + c[1] + "|" + c[2] + "|" + c[3];
    (cells[k] = cells[k] || {})[c[4]] = [c[5], c[6], c[7], c[8], c[9]];
  });
  var base = ["first_attacker_fool", "first_defender_fool", "draw", "bouts", "fool_cards"], shown = base;
  function opt(sel, values) {
    sel.innerHTML = "";
    values.forEach(function (v) { var o = document.createElement("option"); o.value = o.textContent = v; sel.appendChild(o); });
  }
  function num(x, unit) { var d = unit === "points" ? 1 : 2; return (x >= 0 ? "+" : "") + x.toFixed(d); }
  function keysHere() {
    var out = [];
    A.rules.forEach(function (r) {
      var ks = r.keys.filter(function (k) { return cells[k + "|" + fam.value + "|" + pl.value + "|" + lv.value]; });
      if (ks.length) out.push({page: r.page, title: r.title, keys: ks});
    });
    return out;
  }
  function drawPicker() {
    var ticked = {};
    box.querySelectorAll("input:checked").forEach(function (i) { ticked[i.value] = true; });
    box.innerHTML = "";
    keysHere().forEach(function (r) {
      var g = document.createElement("div"); g.className = "group"; g.textContent = r.title; box.appendChild(g);
      r.keys.forEach(function (k) {
        var l = document.createElement("label"), i = document.createElement("input");
        i.type = "checkbox"; i.value = k; i.checked = !!ticked[k]; i.addEventListener("change", answer);
        l.appendChild(i); l.appendChild(document.createTextNode(" " + (k.indexOf("=") > 0 ? k.split("=")[1] : k)));
        box.appendChild(l);
      });
    });
  }
  function table(keys, pages) {
    if (!keys.length) return "<p class='note'>None.</p>";
    var h = "<table class='answers'><thead><tr><th>rule</th>";
    shown.forEach(function (m) { h += "<th>" + A.metrics[m].short + " (" + A.metrics[m].unit + ")</th>"; });
    h += "<th>deals</th></tr></thead><tbody>";
    keys.forEach(function (k) {
      var c = cells[k + "|" + fam.value + "|" + pl.value + "|" + lv.value], deals = 0;
      h += "<tr><td><a href='rules/" + pages[k] + ".html'>" + k + "</a></td>";
      shown.forEach(function (m) {
        var v = c[m];
        if (!v) { h += "<td></td>"; return; }
        deals = v[4];
        var u = A.metrics[m].unit, txt = num(v[0], u) + " [" + num(v[1], u) + ", " + num(v[2], u) + "]";
        h += v[3] ? "<td class='" + (v[0] > 0 ? "more" : "less") + "'>" + txt + "</td>"
                  : "<td class='nd' title='" + txt + "'>no detectable change</td>";
      });
      h += "<td>" + deals.toLocaleString("en") + "</td></tr>";
    });
    return h + "</tbody></table>";
  }
  function answer() {
    shown = lv.value.indexOf("-among-") > 0 ? base.concat(["fool_role0"]) : base;
    var pages = {}, mine = [], others = [];
    keysHere().forEach(function (r) { r.keys.forEach(function (k) { pages[k] = r.page; }); });
    box.querySelectorAll("input").forEach(function (i) { (i.checked ? mine : others).push(i.value); });
    document.getElementById("mine").innerHTML = mine.length ? table(mine, pages)
      : "<p class='note'>Tick a rule above to see what it changes.</p>";
    document.getElementById("others").innerHTML = table(others, pages);
    var q = "#" + [fam.value, pl.value, lv.value].concat(mine).map(encodeURIComponent).join("/");
    if (history.replaceState) history.replaceState(null, "", q);
  }
  function players() { opt(pl, A.players[fam.value].map(String)); }
  opt(fam, A.families); opt(lv, A.levels);
  lv.querySelectorAll("option").forEach(function (o) { o.textContent = A.names[o.value] || o.value; });
  lv.value = A.levels[Math.min(1, A.levels.length - 1)];
  var want = decodeURIComponent(location.hash.slice(1)).split("/");
  if (want[0] && A.families.indexOf(want[0]) >= 0) fam.value = want[0];
  players();
  if (want[1] && A.players[fam.value].indexOf(+want[1]) >= 0) pl.value = want[1];
  if (want[2] && A.levels.indexOf(want[2]) >= 0) lv.value = want[2];
  fam.addEventListener("change", function () { players(); drawPicker(); answer(); });
  pl.addEventListener("change", function () { drawPicker(); answer(); });
  lv.addEventListener("change", function () { drawPicker(); answer(); });
  drawPicker();
  box.querySelectorAll("input").forEach(function (i) { if (want.slice(3).indexOf(i.value) >= 0) i.checked = true; });
  answer();
})();
