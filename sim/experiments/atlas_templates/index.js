// The index: show the heatmap of the chosen measure and skill level (every view is in the page already).
(function () {
  var metric = document.getElementById("metric"), level = document.getElementById("level");
  function show() {
    var views = document.querySelectorAll(".view");
    for (var i = 0; i < views.length; i++) {
      var v = views[i];
      v.classList.toggle("shown", v.dataset.metric === metric.value && v.dataset.level === level.value);
    }
  }
  metric.addEventListener("change", show);
  level.addEventListener("change", show);
  show();
})();
