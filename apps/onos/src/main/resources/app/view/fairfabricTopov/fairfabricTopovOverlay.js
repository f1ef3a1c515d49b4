/*
 * fairfabric overlay for ONOS's topology view: link utilisation labels, the selected tenant's
 * allocated paths highlighted, a button that steps through the tenants. The server side is
 * org.fairfabric.onos.gui.FabricTopoMessageHandler.
 */
(function () {
    'use strict';

    var $log, tov, wss, flash;
    var tenants = [];
    var selected = -1; // index into tenants; -1 = no tenant, loads only
    var timer = null;

    function tenantId() {
        return selected >= 0 && selected < tenants.length ? tenants[selected].id : '';
    }

    function requestHighlights() {
        wss.sendEvent('fairfabricHighlightsRequest', { tenantId: tenantId() });
    }

    function nextTenant() {
        selected = selected + 1 < tenants.length ? selected + 1 : -1;
        flash.flash(selected < 0 ? 'fairfabric: link loads' : 'fairfabric: tenant ' + tenants[selected].name);
        requestHighlights();
    }

    function start() {
        wss.bindHandlers({
            fairfabricTenants: function (data) {
                tenants = data.tenants || [];
                if (selected >= tenants.length) {
                    selected = -1;
                }
            }
        });
        wss.sendEvent('fairfabricTenantsRequest', {});
        requestHighlights();
        timer = setInterval(function () {
            wss.sendEvent('fairfabricTenantsRequest', {});
            requestHighlights();
        }, 1000);
    }

    function stop() {
        if (timer) {
            clearInterval(timer);
            timer = null;
        }
        wss.unbindHandlers({ fairfabricTenants: null });
    }

    var overlay = {
        overlayId: 'fairfabric-overlay',
        glyphId: 'm_allTraffic',
        tooltip: 'fairfabric: link loads and tenant paths',
        activate: start,
        deactivate: stop,
        buttons: {
            tenant: { gid: 'm_details', tt: 'Next tenant', cb: nextTenant }
        },
        hooks: {
            escape: function () {
                selected = -1;
                requestHighlights();
                return true;
            }
        }
    };

    angular.module('ovFairfabricTopov', [])
        .run(['$log', 'TopoOverlayService', 'WebSocketService', 'FlashService',
            function (_$log_, _tov_, _wss_, _flash_) {
                $log = _$log_;
                tov = _tov_;
                wss = _wss_;
                flash = _flash_;
                tov.register(overlay);
                $log.debug('fairfabric overlay registered');
            }]);
}());
