// The index: show the heatmap of the chosen measure and skill level (every view is in the page already).
// A measure only one level has (the strong player's fool rate: the mixed level) switches to that level.
(function () {
  var metric = document.getElementById("metric"), level = document.getElementById("level");
  var views = document.querySelectorAll(".view");
  function find(m, l) {
    for (var i = 0; i < views.length; i++) {
      if (views[i].dataset.metric === m && (l === null || views[i].dataset.level === l)) return views[i];
    }
    return null;
  }
  function show() {
    var v = find(metric.value, level.value);
    if (!v) { v = find(metric.value, null); if (v) level.value = v.dataset.level; }
    for (var i = 0; i < views.length; i++) views[i].classList.toggle("shown", views[i] === v);
  }
  metric.addEventListener("change", show);
  level.addEventListener("change", show);
  show();
})();
